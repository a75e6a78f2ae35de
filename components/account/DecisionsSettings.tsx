/** Settings: where a member finds the statements of reasons about them and appeals them (/decisions). */
export function DecisionsSettings() {
  return (
    <section className="settings-section" aria-labelledby="decisions-settings-title">
      <h3 id="decisions-settings-title">Decisions about you</h3>
      <p className="muted">
        When a moderator rejects or removes something of yours, or restricts your account, the reasons are here, and you can
        appeal.
      </p>
      <a className="btn btn-ghost" href="/decisions">
        See decisions about you
      </a>
    </section>
  );
}
