/** An audit entry's field changes (video edits record each field before and after), shown under its summary. */
export function AuditChanges({ details }: { details: Record<string, unknown> }) {
  const changes = Array.isArray(details.changes)
    ? (details.changes as { field?: unknown; before?: unknown; after?: unknown }[])
    : [];
  if (changes.length === 0) return null;
  const show = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value ?? '')) || '(empty)';
  return (
    <dl className="admin-audit-changes">
      {changes.map((change) => (
        <div key={String(change.field)}>
          <dt>{String(change.field)}</dt>
          <dd>
            <del>{show(change.before)}</del> → <ins>{show(change.after)}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}
