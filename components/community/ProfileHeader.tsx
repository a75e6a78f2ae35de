'use client';

import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import { useState, type ReactNode } from 'react';

import { TaskRewards } from '@/components/tasks/TaskRewards';
import type { ProfileDto } from '@/lib/api-types';
import { compactCount } from '@/lib/format/numbers';

import { Avatar } from './Avatar';
import { FollowButton } from './FollowButton';
import { useFollowState } from './MemberFollowButton';

// Loaded when opened, as in the navbar: its forms stay out of the profile's first load.
const SettingsModal = dynamic(() => import('@/components/account/SettingsModal').then((m) => m.SettingsModal), { ssr: false });

const JOINED = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

function Count({ value, label, testId }: { value: number; label: string; testId: string }) {
  return (
    <div className="profile-count">
      <dt>{label}</dt>
      <dd data-testid={testId} title={value.toLocaleString('en-US')}>
        {compactCount(value)}
      </dd>
    </div>
  );
}

/**
 * Who the member is: photo, name, when they joined, bio (plain text, shown
 * as text), counts and the follow button, whose click moves the follower
 * count at once. On your own profile, "Edit profile" opens the settings.
 * `actions` holds more controls for other members' profiles (report, block).
 */
export function ProfileHeader({ profile, actions }: { profile: ProfileDto; actions?: ReactNode }) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const initial = profile.isSelf ? null : { following: Boolean(profile.isFollowing), followers: profile.counts.followers };
  const { state } = useFollowState(profile.username, initial);
  const followers = profile.isSelf ? profile.counts.followers : (state?.followers ?? profile.counts.followers);

  return (
    <header className="profile-header" aria-labelledby="profile-name">
      <Avatar url={profile.profilePhotoUrl} username={profile.username} />
      <div className="profile-main">
        <div className="profile-title">
          <div className="profile-id">
            <h1 id="profile-name">{profile.username}</h1>
            <p className="profile-joined">
              Joined <time dateTime={profile.createdAt}>{JOINED.format(new Date(profile.createdAt))}</time>
            </p>
          </div>
          <div className="profile-actions">
            {profile.isSelf ? (
              <button type="button" className="btn btn-ghost" onClick={() => setEditing(true)}>
                Edit profile
              </button>
            ) : (
              <FollowButton username={profile.username} initial={initial} />
            )}
            {actions}
          </div>
        </div>
        {profile.bio ? (
          <p className="profile-bio" data-testid="profile-bio">
            {profile.bio}
          </p>
        ) : (
          profile.isSelf && (
            <p className="profile-bio profile-bio-empty">Tell people about yourself: add a bio with Edit profile.</p>
          )
        )}
        <dl className="profile-counts" aria-label="Numbers">
          <Count value={profile.counts.videos} label={profile.counts.videos === 1 ? 'Video' : 'Videos'} testId="count-videos" />
          <Count value={followers} label={followers === 1 ? 'Follower' : 'Followers'} testId="count-followers" />
          <Count value={profile.counts.following} label="Following" testId="count-following" />
          <Count
            value={profile.counts.likesReceived}
            label={profile.counts.likesReceived === 1 ? 'Like' : 'Likes'}
            testId="count-likes"
          />
        </dl>
        <TaskRewards tasks={profile.rewards.tasks} streak={profile.rewards.streak} />
      </div>
      {editing && (
        <SettingsModal
          focus="bio"
          onClose={() => {
            setEditing(false);
            // The bio may have changed: render the profile again from the server.
            router.refresh();
          }}
        />
      )}
    </header>
  );
}
