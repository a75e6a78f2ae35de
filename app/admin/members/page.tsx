import type { Metadata } from 'next';

import { MemberBadges } from '@/components/admin/MemberBadges';
import { Pagination } from '@/components/admin/Pagination';
import { listMembers } from '@/lib/server/admin/members';
import { pageActor } from '@/lib/server/auth/session';
import { forPage } from '@/lib/server/page-access';
import { firstValues } from '@/lib/search-params';
import { pageMetadata } from '@/lib/seo/metadata';
import { MEMBER_FILTERS, memberListQuerySchema } from '@/lib/validation/admin';

export function generateMetadata(): Metadata {
  return pageMetadata({
    title: 'Members',
    description: 'Find members, ban and unban, VIP and admin rights.',
    path: '/admin/members',
    noindex: true,
  });
}

const FILTER_LABELS: Record<(typeof MEMBER_FILTERS)[number], string> = {
  all: 'Everyone',
  banned: 'Banned',
  admins: 'Admins',
  vip: 'VIP',
  unverified: 'Unverified email',
};

const dateFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' });

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Members, newest first: a plain GET form searches by name or email and filters; each row opens the member. */
export default async function MembersPage({ searchParams }: Props) {
  const raw = await searchParams;
  const { member, filter, page } = firstValues(raw);
  // The page calls its search `member`, not `q`: the navbar's search box shows any `q` in the URL as a video search.
  const parsed = memberListQuerySchema.safeParse({ q: member, filter, page });
  const query = parsed.success ? parsed.data : memberListQuerySchema.parse({});
  const { members, pagination } = await forPage(listMembers(await pageActor(), query), '/admin/members');
  return (
    <>
      <header className="page-header">
        <span className="eyebrow">Admin Panel</span>
        <h1>Members</h1>
        <p>
          Search by username or email. Open a member to ban or unban them, grant VIP or admin rights, or resend their verification
          email.
        </p>
      </header>
      <form className="admin-toolbar" role="search" aria-label="Members" action="/admin/members" method="get">
        <div className="field">
          <label htmlFor="member-search">Username or email</label>
          <input id="member-search" name="member" type="search" defaultValue={query.q} maxLength={100} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor="member-filter">Show</label>
          <select id="member-filter" name="filter" defaultValue={query.filter}>
            {MEMBER_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {FILTER_LABELS[filter]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn btn-primary">
          Find members
        </button>
      </form>
      {members.length === 0 ? (
        <div className="empty-state">
          <p>No members match{query.q ? ` “${query.q}”` : ''}.</p>
        </div>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table admin-table-stack">
            <caption className="visually-hidden">Members</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Joined</th>
                <th scope="col">Videos</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member._id}>
                  <td data-label="Member">
                    <a href={`/admin/members/${member._id}`}>{member.username}</a>
                  </td>
                  <td data-label="Email">{member.email}</td>
                  <td data-label="Status">
                    <MemberBadges member={member} />
                  </td>
                  <td data-label="Joined">
                    <time dateTime={member.createdAt}>{dateFormat.format(new Date(member.createdAt))}</time>
                  </td>
                  <td data-label="Videos">{member.videos}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination
        path="/admin/members"
        params={{ member: query.q || undefined, filter: query.filter === 'all' ? undefined : query.filter }}
        page={query.page}
        hasMore={pagination.hasMore}
      />
    </>
  );
}
