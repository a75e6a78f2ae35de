/** What the playlist tools say after an action: the server's message on failure, else the fallback; and the last success. */
export const messageOf = (failure: unknown, fallback: string) =>
  failure instanceof Error && failure.message ? failure.message : fallback;

export function ActionFeedback({ error, status }: { error: string | null; status: string }) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <p className="share-status" role="status" aria-live="polite">
        {status}
      </p>
    </>
  );
}
