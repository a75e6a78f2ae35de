import type { Metadata } from 'next';
import { connection } from 'next/server';

import { WebSiteStructuredData } from '@/components/seo/StructuredData';
import { CompletePerformerRecords } from '@/components/videos/CompletePerformerRecords';
import { pageMetadata } from '@/lib/seo/metadata';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Performer records',
    description: 'Declare who appears in your video.',
    path: '/upload',
    noindex: true,
  });
}

/**
 * /upload/performers/{streamVideoId} (login required, proxy.ts): the owner
 * declares or completes who appears in a video, when saving them with the
 * upload failed or they were never given. The form is a client island;
 * the API checks the caller owns the video.
 */
export default async function PerformerRecordsPage({ params }: { params: Promise<{ streamVideoId: string }> }) {
  // Rendered per request, so its scripts carry the request's CSP nonce (decision 008).
  await connection();
  const { streamVideoId } = await params;
  return (
    <div className="upload-page">
      <WebSiteStructuredData path="/upload" name="Performer records" />
      <header className="page-header">
        <span className="eyebrow">Upload</span>
        <h1>Performer records</h1>
        <p>List everyone who appears in this video. It is reviewed for publication once the records are complete.</p>
      </header>
      <CompletePerformerRecords streamVideoId={streamVideoId} />
    </div>
  );
}
