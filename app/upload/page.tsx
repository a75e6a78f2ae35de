import type { Metadata } from 'next';
import { connection } from 'next/server';

import { OwnVideos } from '@/components/videos/OwnVideos';
import { UploadForm } from '@/components/videos/UploadForm';
import { getConfig } from '@/lib/config/server';
import { pageActor } from '@/lib/server/auth/session';
import { getMyVerification } from '@/lib/server/verification';
import { pageMetadata } from '@/lib/seo/metadata';
import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import '@/components/verification/verification.css';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Upload',
    description: 'Upload a video and follow its processing and review.',
    path: '/upload',
    noindex: true,
  });
}

/**
 * /upload (login required: proxy.ts sends visitors without a session to
 * /login first). The shell is static; the form and the member's list are
 * client islands that wait for the session. "Your videos" is in the HTML from
 * the start so /upload#your-videos (the rejection notification's link) has a
 * target.
 */
export default async function UploadPage() {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008); only public pages are prerendered and cached.
  await connection();
  const { maxUploadBytes, resumableUploadThresholdBytes } = getConfig();
  const actor = await pageActor();
  // Uploading stays open; publication waits for verification (the approval gate), which the member should know before uploading.
  const verification = actor.kind === 'member' ? await getMyVerification(actor) : null;
  return (
    <div className="upload-page">
      <WebSiteStructuredData path="/upload" name="Upload" />
      <header className="page-header">
        <span className="eyebrow">Upload</span>
        <h1>Upload a video</h1>
        <p>
          Share your transformation with the community. Each upload is checked and reviewed before it goes public; read the{' '}
          <a href="/community-standards">Community Standards</a> first.
        </p>
      </header>
      {verification && verification.status !== 'approved' && (
        <div className="upload-verify-notice" role="note">
          <p>
            {verification.status === 'pending'
              ? 'Your identity documents are being reviewed. You can upload now; your videos are published once you are verified and they pass review.'
              : verification.status === 'rejected'
                ? 'Your identity verification was not approved. Your videos will be published only after you are verified: '
                : 'Your videos will be published only after you verify your identity (a one-time check that you are an adult): '}
            {verification.status !== 'pending' && (
              <a href="/verify">{verification.status === 'rejected' ? 'send new documents' : 'verify your identity'}</a>
            )}
            {verification.status !== 'pending' && '.'}
          </p>
        </div>
      )}
      <UploadForm maxUploadBytes={maxUploadBytes} resumableThresholdBytes={resumableUploadThresholdBytes} />
      <section id="your-videos" className="section own-videos-section" aria-labelledby="your-videos-title">
        <div className="section-head">
          <h2 id="your-videos-title">Your videos</h2>
        </div>
        <OwnVideos />
      </section>
    </div>
  );
}
