import type { AdminMemberDto } from '@/lib/api-types';

/** Admin, VIP, banned and unverified at a glance. */
export function MemberBadges({ member }: { member: AdminMemberDto }) {
  return (
    <span className="admin-badges">
      {member.isAdmin && <span className="admin-badge admin-badge-admin">Admin</span>}
      {member.isVIP && <span className="admin-badge admin-badge-vip">VIP</span>}
      {member.banned && <span className="admin-badge admin-badge-banned">Banned</span>}
      {!member.emailVerified && <span className="admin-badge admin-badge-warn">Unverified</span>}
    </span>
  );
}
