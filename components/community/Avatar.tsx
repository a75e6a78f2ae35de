/** The round picture: the member's photo, or their initial on the brand gradient. */
export function Avatar({ url, username, size = 'large' }: { url: string | null; username: string; size?: 'large' | 'small' }) {
  const px = size === 'large' ? 128 : 44;
  return url ? (
    // Avatars are already 256 px WebP from our pipeline; the image optimiser would only add work.
    // eslint-disable-next-line @next/next/no-img-element
    <img className={`avatar avatar-${size}`} src={url} alt="" width={px} height={px} decoding="async" />
  ) : (
    <span className={`avatar avatar-${size} avatar-letter`} aria-hidden="true" data-testid="avatar-placeholder">
      {username.slice(0, 1).toUpperCase()}
    </span>
  );
}
