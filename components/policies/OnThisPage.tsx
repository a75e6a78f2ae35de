/** The "On this page" list at the top of a policy: links to its sections' headings. */
export function OnThisPage({ sections }: { sections: readonly (readonly [id: string, title: string])[] }) {
  return (
    <nav aria-label="On this page">
      <p>
        <strong>On this page</strong>
      </p>
      <ul>
        {sections.map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`}>{title}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
