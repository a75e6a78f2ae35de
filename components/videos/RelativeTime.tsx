'use client';

import { useEffect, useState } from 'react';

import { relativeTime } from '@/lib/format/relative-time';

/**
 * "3 days ago", correct for the reader's clock: the server's text (the page
 * may be cached for a few seconds) is replaced after hydration and kept
 * fresh each minute. The full date is the tooltip and the machine value.
 */
export function RelativeTime({ date, serverText }: { date: string; serverText: string }) {
  const [text, setText] = useState(serverText);
  useEffect(() => {
    const update = () => setText(relativeTime(date));
    update();
    const timer = setInterval(update, 60_000);
    return () => clearInterval(timer);
  }, [date]);
  return (
    <time dateTime={date} title={new Date(date).toUTCString()} suppressHydrationWarning>
      {text}
    </time>
  );
}
