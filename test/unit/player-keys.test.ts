import { playerKeySeek, SEEK_JL_SECONDS } from '@/components/videos/player-keys';

describe('the player keys media-chrome lacks', () => {
  it('j and l move ten seconds, never before the start or past the end', () => {
    expect(playerKeySeek('l', 20, 60)).toBe(20 + SEEK_JL_SECONDS);
    expect(playerKeySeek('j', 20, 60)).toBe(20 - SEEK_JL_SECONDS);
    expect(playerKeySeek('j', 4, 60)).toBe(0);
    expect(playerKeySeek('l', 55, 60)).toBe(60);
    // Before the metadata (no duration) l is not capped at an unknown end.
    expect(playerKeySeek('l', 0, Number.NaN)).toBe(10);
  });

  it('0–9 jump to that tenth of a known duration', () => {
    expect(playerKeySeek('0', 30, 60)).toBe(0);
    expect(playerKeySeek('5', 0, 60)).toBe(30);
    expect(playerKeySeek('9', 0, 60)).toBe(54);
    expect(playerKeySeek('5', 0, Number.NaN)).toBeNull();
    expect(playerKeySeek('5', 0, Infinity)).toBeNull();
  });

  it('leaves every other key to media-chrome or the page', () => {
    for (const key of ['k', ' ', 'ArrowLeft', 'J', 'L', '10', 'Enter', 'Tab', '٥']) expect(playerKeySeek(key, 10, 60)).toBeNull();
  });
});
