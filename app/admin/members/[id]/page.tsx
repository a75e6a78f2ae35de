import type { Metadata } from 'next';
import { notFound } from 'next/navigation';

import { AdminAction } from '@/components/admin/AdminAction';
import { MemberBadges } from '@/components/admin/MemberBadges';
import { relativeTime } from '@/lib/format/relative-time';
import { getMemberDetail } from '@/lib/server/admin/members';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { pageMetadata } from '@/lib/seo/metadata';
import { BAN_REASON_MAX, memberIdParamsSchema } from '@/lib/validation/admin';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Member',
    description: 'A member’s account, VIP and history.',
    path: '/admin/members',
    noindex: true,
  });
}

const BAN_TEMPLATES = [
  'Spam or scams',
  'Harassment of other members',
  'Uploading content that breaks the community standards',
  'Underage account',
] as const;
const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
const when = (iso: string) => `${dateFormat.format(new Date(iso))} UTC`;

type Props = { params: Promise<{ id: string }> };

/** One member for admins: the account, its counts, VIP periods, and every action; what the API refuses shows its message here. */
export default async function MemberPage({ params }: Props) {
  const parsed = memberIdParamsSchema.safeParse(await params);
  if (!parsed.success) notFound();
  const actor = await pageActor();
  const member = await forPage(getMemberDetail(actor, parsed.data.id), `/admin/members/${parsed.data.id}`);
  const self = actor.kind === 'member' && actor.user.id === member._id;
  const base = `/api/admin/users/${member._id}`;
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">
          <a href="/admin/members">Members</a>
        </span>
        <h1>{member.username}</h1>
        <p>
          <MemberBadges member={member} />
        </p>
      </header>

      <div className="admin-panels">
        <section className="admin-section admin-report" aria-labelledby="account-heading">
          <h2 id="account-heading">Account</h2>
          <dl className="admin-facts">
            <div>
              <dt>Email</dt>
              <dd>{member.email}</dd>
            </div>
            <div>
              <dt>Joined</dt>
              <dd>{when(member.createdAt)}</dd>
            </div>
            <div>
              <dt>Profile</dt>
              <dd>
                <a href={`/profile/${encodeURIComponent(member.username)}`}>/profile/{member.username}</a>
              </dd>
            </div>
            <div>
              <dt>Videos</dt>
              <dd>
                {member.counts.videosApproved} approved · {member.counts.videosPending} pending · {member.counts.videosRejected}{' '}
                rejected
              </dd>
            </div>
            <div>
              <dt>Followers</dt>
              <dd>{member.counts.followers}</dd>
            </div>
            <div>
              <dt>Comments</dt>
              <dd>{member.counts.comments}</dd>
            </div>
            <div>
              <dt>Daily tasks</dt>
              <dd>{member.tasks}</dd>
            </div>
            <div>
              <dt>Open reports on profile</dt>
              <dd>{member.counts.openReports}</dd>
            </div>
          </dl>
          {!member.emailVerified && (
            <AdminAction
              label="Resend verification email"
              method="POST"
              url={`${base}/resend-verification`}
              done="Verification email sent."
            />
          )}
        </section>

        <section className="admin-section admin-report" aria-labelledby="ban-heading">
          <h2 id="ban-heading">Ban</h2>
          {member.banned ? (
            <>
              <p>
                Banned {member.bannedAt ? relativeTime(member.bannedAt) : ''}
                {member.bannedBy ? ` by ${member.bannedBy}` : ''}: {member.banReason}
              </p>
              <AdminAction
                label="Lift the ban"
                method="DELETE"
                url={`${base}/ban`}
                fields={[{ name: 'note', label: 'Note for the audit log (optional)', kind: 'textarea', maxLength: 500 }]}
                done="The ban is lifted. The member can log in again."
              />
            </>
          ) : self ? (
            <p className="admin-muted">This is your own account.</p>
          ) : member.isAdmin ? (
            <p className="admin-muted">Admins cannot be banned. Remove their admin rights first.</p>
          ) : (
            <>
              <p className="admin-muted">
                A ban logs the member out everywhere at once, refuses every request with “Account is banned”, and hides their
                videos.
              </p>
              <AdminAction
                label="Ban member…"
                confirmLabel={`Ban ${member.username}`}
                danger
                method="POST"
                url={`${base}/ban`}
                fields={[
                  {
                    name: 'reason',
                    label: 'Reason (kept in the audit log)',
                    kind: 'textarea',
                    requiredMessage: 'Give a reason for the ban.',
                    maxLength: BAN_REASON_MAX,
                    templates: BAN_TEMPLATES,
                  },
                ]}
                done={`${member.username} is banned.`}
              />
            </>
          )}
        </section>

        <section className="admin-section admin-report" aria-labelledby="vip-heading">
          <h2 id="vip-heading">VIP</h2>
          <p>{member.isVIP && member.vipUntil ? `VIP until ${when(member.vipUntil)}.` : 'Not VIP.'}</p>
          <AdminAction
            label="Grant VIP…"
            confirmLabel="Grant VIP"
            method="POST"
            url={`${base}/vip`}
            fields={[
              {
                name: 'days',
                label: 'Days of VIP (added to any VIP they have)',
                kind: 'number',
                defaultValue: '30',
                requiredMessage: 'Enter a number of days.',
              },
              { name: 'note', label: 'Note (optional)', kind: 'text', maxLength: 500 },
            ]}
            done="VIP granted."
          />
          {member.isVIP && (
            <AdminAction
              label="Revoke VIP…"
              confirmLabel="Revoke VIP now"
              danger
              method="DELETE"
              url={`${base}/vip`}
              fields={[
                {
                  name: 'note',
                  label: 'Note (optional). A Verotel subscription must also be cancelled in the Verotel Control Center.',
                  kind: 'text',
                  maxLength: 500,
                },
              ]}
              done="VIP revoked."
            />
          )}
          {member.entitlements.length > 0 && (
            <div className="admin-table-wrap">
              <table className="admin-table">
                <caption className="visually-hidden">VIP periods</caption>
                <thead>
                  <tr>
                    <th scope="col">Source</th>
                    <th scope="col">Status</th>
                    <th scope="col">Ends</th>
                  </tr>
                </thead>
                <tbody>
                  {member.entitlements.map((entitlement) => (
                    <tr key={entitlement._id}>
                      <td>
                        {entitlement.source}
                        {entitlement.planId ? ` · ${entitlement.planId}` : ''}
                        {entitlement.note ? ` · ${entitlement.note}` : ''}
                      </td>
                      <td>{entitlement.status}</td>
                      <td>{when(entitlement.periodEnd)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>

        <section className="admin-section admin-report" aria-labelledby="admin-heading">
          <h2 id="admin-heading">Admin rights</h2>
          {member.isAdmin ? (
            <AdminAction
              label="Remove admin rights"
              danger
              method="DELETE"
              url={`${base}/admin`}
              confirm={
                self
                  ? 'You are removing your own admin rights. You will lose access to this panel.'
                  : `${member.username} will lose access to the admin panel.`
              }
              confirmLabel="Remove admin rights"
              done="Admin rights removed."
            />
          ) : (
            <AdminAction
              label="Make admin"
              method="POST"
              url={`${base}/admin`}
              confirm={`${member.username} will be able to moderate, ban members and change VIP.`}
              confirmLabel="Make admin"
              done={`${member.username} is now an admin.`}
            />
          )}
        </section>
      </div>

      <section className="admin-section" aria-labelledby="history-heading">
        <h2 id="history-heading">Admin history</h2>
        {member.history.length === 0 ? (
          <p className="admin-muted">No admin has acted on this account yet.</p>
        ) : (
          <ol className="admin-list">
            {member.history.map((entry) => (
              <li key={entry._id}>
                <time dateTime={entry.createdAt}>{when(entry.createdAt)}</time> · {entry.admin.username}: {entry.summary}
              </li>
            ))}
          </ol>
        )}
        <p>
          <a href={`/admin/audit?targetType=member&targetId=${member._id}`}>Full history in the audit log</a>
        </p>
      </section>
    </>
  );
}
