import type { DecisionDto } from '@/lib/trust/statements';
import { APPEAL_STATUS_LABELS } from '@/lib/trust/statements';

import { AppealForm } from './AppealForm';

import './trust.css';

const dateText = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

const TARGET_NAMES: Record<string, string> = {
  video: 'Video',
  comment: 'Comment',
  account: 'Account',
  verification: 'Identity verification',
};

/**
 * A statement of reasons as DSA Art. 17 lists it: what was decided, about
 * what, on which ground (the rule, linked, or the law), the facts, whether
 * it was automated, when, and how to appeal (Art. 20) — with the appeal
 * itself, or the form when one can still be sent.
 */
export function DecisionStatement({
  decision,
  canAppeal,
  linkKey,
}: {
  decision: DecisionDto;
  canAppeal: boolean;
  linkKey?: { e: string; k: string };
}) {
  const ground = decision.groundInfo;
  return (
    <div className="statement">
      <dl className="statement-facts">
        <dt>Decision</dt>
        <dd>{decision.actionLabel}</dd>
        <dt>About</dt>
        <dd>
          {TARGET_NAMES[decision.targetType] ?? decision.targetType}
          {decision.targetLabel ? `: “${decision.targetLabel}”` : ''}
        </dd>
        <dt>Ground</dt>
        <dd>
          {ground ? (
            <>
              {ground.kind === 'law' ? 'The law: ' : 'Our rule: '}
              {ground.href ? <a href={ground.href}>{ground.reference}</a> : ground.reference}
            </>
          ) : (
            decision.ground
          )}
        </dd>
        <dt>Facts and reasons</dt>
        <dd className="statement-quote">{decision.explanation || 'No further explanation was given.'}</dd>
        <dt>Decided by</dt>
        <dd>{decision.automated ? 'An automatic process, without a person deciding' : 'A moderator (a person)'}</dd>
        <dt>What led to it</dt>
        <dd>{decision.sourceLabel}</dd>
        <dt>Date</dt>
        <dd>
          <time dateTime={decision.createdAt}>{dateText(decision.createdAt)}</time>
        </dd>
        <dt>Appeal until</dt>
        <dd>
          <time dateTime={decision.appealUntil}>{dateText(decision.appealUntil)}</time>
        </dd>
      </dl>

      {decision.appeal ? (
        <section className="statement-box" aria-labelledby="appeal-title">
          <h2 id="appeal-title">Your appeal</h2>
          <p>
            <strong>{APPEAL_STATUS_LABELS[decision.appeal.status]}</strong>
            {decision.appeal.decidedAt
              ? ` (${dateText(decision.appeal.decidedAt)})`
              : ` (sent ${dateText(decision.appeal.createdAt)})`}
          </p>
          {decision.appeal.outcomeNote && (
            <p className="statement-quote">
              <strong>The reviewer’s note:</strong> {decision.appeal.outcomeNote}
            </p>
          )}
          <p className="statement-quote">
            <strong>What you wrote:</strong> {decision.appeal.statement}
          </p>
          {decision.appealRefusal && decision.appeal.status !== 'open' && <p className="admin-muted">{decision.appealRefusal}</p>}
        </section>
      ) : null}

      <section className="statement-box" aria-labelledby="review-title">
        <h2 id="review-title">Who reviews an appeal</h2>
        <p>
          An admin who did not make this decision reads your appeal and either upholds the decision or reverses it, with a note.
          If it is reversed we undo what can be undone. You are told the outcome here, in your notifications and by email. You can
          also take the decision to a certified out-of-court dispute settlement body or to a court.{' '}
          <a href="/community-standards#enforcement-and-appeals">How enforcement and appeals work</a>.
        </p>
      </section>

      {!decision.appeal && (
        <section className="statement-box" aria-labelledby="appeal-form-title">
          <h2 id="appeal-form-title">Appeal this decision</h2>
          {decision.appealRefusal ? (
            <p>{decision.appealRefusal}</p>
          ) : canAppeal ? (
            <AppealForm decisionId={decision._id} linkKey={linkKey} />
          ) : (
            <p>Only the member this decision is about can appeal it.</p>
          )}
        </section>
      )}
    </div>
  );
}
