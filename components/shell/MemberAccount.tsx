'use client';

import dynamic from 'next/dynamic';
import { useState } from 'react';

import { NotificationBell } from '@/components/community/NotificationBell';
import { useSession } from '@/components/session/SessionProvider';
import { HeartIcon } from '@/components/icons';
import { PlaylistsIcon, SettingsIcon } from '@/components/shell/account-icons';
import { ClockIcon, HistoryIcon } from '@/components/videos/ClockIcon';

// Loaded when opened: its forms (react-hook-form, zod) stay out of every page's first load.
const SettingsModal = dynamic(() => import('@/components/account/SettingsModal').then((m) => m.SettingsModal), { ssr: false });

/** A member's part of the header and mobile menu (AccountArea loads it): the bell, their links, settings, profile, Upload and Logout. */
export function MemberAccount() {
  const { user, logout } = useSession();
  const [settingsOpen, setSettingsOpen] = useState(false);
  if (!user) return null;
  return (
    <div className="nav-account nav-account-member">
      <NotificationBell />
      <a className="nav-link" href="/following">
        Following
      </a>
      {/* Icons in the header (their text hidden there, where space is short); icon and text in the mobile menu. */}
      <a className="nav-link nav-icon-link" href="/liked-videos" aria-label="Liked videos" title="Liked videos">
        <HeartIcon size={18} />
        <span className="nav-icon-link-text">Liked</span>
      </a>
      <a className="nav-link nav-icon-link" href="/watch-later" aria-label="Watch later" title="Watch later">
        <ClockIcon />
        <span className="nav-icon-link-text">Watch later</span>
      </a>
      <a className="nav-link nav-icon-link" href="/history" aria-label="History" title="History">
        <HistoryIcon />
        <span className="nav-icon-link-text">History</span>
      </a>
      <a className="nav-link nav-icon-link" href="/playlists" aria-label="Playlists" title="Playlists">
        <PlaylistsIcon />
        <span className="nav-icon-link-text">Playlists</span>
      </a>
      <button
        type="button"
        className="nav-link nav-icon-link"
        aria-label="Settings"
        title="Settings"
        onClick={() => setSettingsOpen(true)}
      >
        <SettingsIcon />
        <span className="nav-icon-link-text">Settings</span>
      </button>
      <a className="nav-link nav-username" href={`/profile/${encodeURIComponent(user.username)}`}>
        {/* The member's photo, which follows changes in settings at once; decorative beside the name. */}
        {user.profilePhotoUrl && (
          // eslint-disable-next-line @next/next/no-img-element -- our own 64 px WebP
          <img
            className="nav-avatar"
            src={user.profilePhotoUrl.replace(/-256\.webp$/, '-64.webp')}
            alt=""
            width={24}
            height={24}
          />
        )}
        {user.username}
      </a>
      <a className="btn btn-primary" href="/upload">
        Upload
      </a>
      <button type="button" className="btn btn-ghost" onClick={() => void logout()}>
        Logout
      </button>
      {settingsOpen && <SettingsModal onClose={() => setSettingsOpen(false)} />}
    </div>
  );
}
