/**
 * @jest-environment jsdom
 */
import { AGE_CONFIRMED_KEY, WIDE_HEADER_MEDIA } from '@/lib/app-scripts/constants';
import {
  AGE_GATE_BOOT_SCRIPT,
  AGE_GATE_READY_SCRIPT,
  HEADER_BOOT_SCRIPT,
  HEADER_READY_SCRIPT,
  PLAYER_START_SCRIPT,
  type AppScript,
} from '@/lib/app-scripts/generated';

/**
 * The compiled texts (lib/app-scripts/generated.ts), run as a page runs them: a <script> element the document
 * executes where it stands. The e2e specs hold the rest (popovers, navigation, a real player; decision 044).
 */
function run(script: AppScript, after: Element = document.body.lastElementChild ?? document.body): void {
  const element = document.createElement('script');
  element.textContent = script.text;
  after.after(element);
}

/** Each test gets a fresh document; listeners a script put on `document` stay, so each file part boots once. */
beforeEach(() => {
  document.body.innerHTML = '';
  sessionStorage.clear();
});

describe('the age gate scripts', () => {
  const gate = () => {
    document.body.innerHTML = `<div class="app-root" inert><p>App</p></div>
      <div class="age-gate"><button data-age-gate="confirm">Yes</button><button data-age-gate="exit" data-exit-url="https://www.google.com/">No</button></div>`;
  };

  it('focus "Yes" for a new session, then open the app and remember the answer on "Yes"', () => {
    gate();
    run(AGE_GATE_BOOT_SCRIPT, document.body.firstElementChild!);
    expect(document.documentElement.dataset.ageGateReady).toBe('true');
    expect(document.documentElement.dataset.ageConfirmed).toBeUndefined();
    run(AGE_GATE_READY_SCRIPT);
    expect(document.activeElement?.textContent).toBe('Yes');
    expect(document.querySelector('.app-root')!.hasAttribute('inert')).toBe(true);

    (document.querySelector('[data-age-gate=confirm]') as HTMLElement).click();
    expect(sessionStorage.getItem(AGE_CONFIRMED_KEY)).toBe('true');
    expect(document.documentElement.dataset.ageConfirmed).toBe('true');
    expect(document.querySelector('.app-root')!.hasAttribute('inert')).toBe(false);
  });

  it('open the app at once for a session that already confirmed', () => {
    delete document.documentElement.dataset.ageConfirmed;
    sessionStorage.setItem(AGE_CONFIRMED_KEY, 'true');
    gate();
    // The boot script's click listener is already on the document (previous test); the mark is what this checks.
    run(AGE_GATE_BOOT_SCRIPT, document.body.firstElementChild!);
    expect(document.documentElement.dataset.ageConfirmed).toBe('true');
    run(AGE_GATE_READY_SCRIPT);
    expect(document.querySelector('.app-root')!.hasAttribute('inert')).toBe(false);
  });
});

describe('the header scripts', () => {
  it("mark this path's nav links as current and fill the search boxes from ?q=", () => {
    history.replaceState(null, '', '/category/Sissy?q=two%20words');
    document.body.innerHTML = `<ul class="nav-links"><li><a href="/">Home</a></li><li><a href="/category/Sissy">Sissy</a></li></ul>
      <form class="nav-search"><input name="q"></form><form class="nav-search"><input name="q"></form>`;
    run(HEADER_READY_SCRIPT);
    expect([...document.querySelectorAll('.nav-links a')].map((link) => link.getAttribute('aria-current'))).toEqual([
      null,
      'page',
    ]);
    expect([...document.querySelectorAll<HTMLInputElement>('.nav-search input')].map((input) => input.value)).toEqual([
      'two words',
      'two words',
    ]);
  });

  it('keep a blank search on the page, and leave other forms alone', () => {
    document.body.innerHTML = `<form class="nav-search"><input name="q" value="   "></form><form class="other"><input name="q" value="x"></form>`;
    // jsdom has no matchMedia; the script asks for the wide-screen query once.
    window.matchMedia = jest.fn().mockReturnValue({ matches: false, addEventListener: jest.fn() });
    run(HEADER_BOOT_SCRIPT);
    expect(document.documentElement.dataset.headerReady).toBe('true');
    expect(window.matchMedia).toHaveBeenCalledWith(WIDE_HEADER_MEDIA);
    const submit = (form: Element) => {
      const event = new Event('submit', { bubbles: true, cancelable: true });
      form.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(submit(document.querySelector('.nav-search')!)).toBe(true);
    expect(location.pathname).toBe('/category/Sissy');
    expect(submit(document.querySelector('.other')!)).toBe(false);
  });
});

describe('the player start script', () => {
  it('shows the controls, hides the button, focuses the video and plays on a click instead of following the link', () => {
    const play = jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    document.body.innerHTML =
      '<div class="player"><video tabindex="-1"></video><a class="player-start" href="/media/v.mp4">Play</a></div>';
    run(PLAYER_START_SCRIPT);
    const video = document.querySelector('video')!;
    const start = document.querySelector<HTMLAnchorElement>('.player-start')!;
    expect(video.controls).toBe(false);

    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    start.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    expect(video.controls).toBe(true);
    expect(start.hidden).toBe(true);
    expect(document.activeElement).toBe(video);
    expect(play).toHaveBeenCalledTimes(1);
  });

  it('shows the controls when playback starts another way', () => {
    document.body.innerHTML = '<div class="player"><video></video><a class="player-start" href="/media/v.mp4">Play</a></div>';
    run(PLAYER_START_SCRIPT);
    document.querySelector('video')!.dispatchEvent(new Event('play'));
    expect(document.querySelector('video')!.controls).toBe(true);
    expect(document.querySelector<HTMLElement>('.player-start')!.hidden).toBe(true);
  });
});
