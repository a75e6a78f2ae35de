import type { Metadata, Viewport } from 'next';
import { Suspense, type ReactNode } from 'react';

import { SessionProvider } from '@/components/session/SessionProvider';
import { AgeGate } from '@/components/shell/AgeGate';
import { RegionBlockedModal } from '@/components/shell/RegionBlockedModal';
import { ScrollToTop } from '@/components/shell/ScrollToTop';
import { SiteFooter } from '@/components/shell/SiteFooter';
import { SiteHeader } from '@/components/shell/SiteHeader';
import { CardPreviews } from '@/components/videos/CardPreviews';
import { AGE_GATE_BOOT_SCRIPT, HEADER_BOOT_SCRIPT, SPECULATION_RULES } from '@/lib/app-scripts/generated';
import { getConfig } from '@/lib/config/server';
import { rootMetadata } from '@/lib/seo/metadata';

import './globals.css';
import '@/components/videos/videos.css';
import '@/components/community/community.css';
import '@/components/playlists/playlists.css';

export function generateMetadata(): Metadata {
  return rootMetadata();
}

export const viewport: Viewport = {
  themeColor: '#0d0c12',
  colorScheme: 'dark',
  width: 'device-width',
  initialScale: 1,
};

export default function RootLayout({ children }: { children: ReactNode }) {
  const { siteName } = getConfig();
  return (
    // The boot script may set data-age-confirmed before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: AGE_GATE_BOOT_SCRIPT.text }} />
        <script dangerouslySetInnerHTML={{ __html: HEADER_BOOT_SCRIPT.text }} />
        <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES.text }} />
      </head>
      <body>
        <SessionProvider>
          <AgeGate siteName={siteName}>
            <a className="skip-link" href="#main">
              Skip to content
            </a>
            <SiteHeader siteName={siteName} />
            <main id="main" tabIndex={-1}>
              {children}
            </main>
            <SiteFooter siteName={siteName} />
          </AgeGate>
          <RegionBlockedModal siteName={siteName} />
        </SessionProvider>
        {/* It reads the URL's query: on prerendered pages that needs a Suspense boundary (rendered in the browser). */}
        <Suspense fallback={null}>
          <ScrollToTop />
        </Suspense>
        <CardPreviews />
      </body>
    </html>
  );
}
