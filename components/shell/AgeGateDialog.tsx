import { LogoMark } from '@/components/brand/LogoMark';
import { EXIT_URL } from '@/lib/site';

/**
 * The age gate's dialog (AgeGate.tsx), a server component: its buttons are answered by the inline scripts of
 * lib/app-scripts/source/age-gate.ts (or, on a 404 page React draws in the browser, by ShellInBrowser, which calls the
 * same functions).
 */
export function AgeGateDialog({ siteName }: { siteName: string }) {
  return (
    <div className="age-gate" role="dialog" aria-modal="true" aria-labelledby="age-gate-title" aria-describedby="age-gate-desc">
      <div className="age-gate-card">
        <LogoMark size={64} />
        <h2 id="age-gate-title">This site is for adults only</h2>
        <p id="age-gate-desc">
          {siteName} contains sexually explicit material made by and for adults. Please confirm that you are at least 18 years old
          and that viewing adult content is legal where you are.
        </p>
        <div className="age-gate-actions">
          <button type="button" className="btn btn-primary" data-age-gate="confirm">
            Yes, I am 18 or older
          </button>
          <button type="button" className="btn btn-ghost" data-age-gate="exit" data-exit-url={EXIT_URL}>
            No, Exit Site
          </button>
        </div>
        <p className="age-gate-fine">Your answer is remembered until you close this browser session.</p>
        <noscript>
          <p>Please enable JavaScript to confirm your age and enter the site.</p>
        </noscript>
      </div>
    </div>
  );
}
