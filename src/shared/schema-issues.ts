/**
 * Standard Schema issues as people read them: the dotted path of the field at fault, then what is
 * wrong with it, so an error names the field to change.
 */
export interface SchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<unknown> | undefined;
}

/** `a.b.0`: a path segment is a key or `{ key }` (Standard Schema allows both). */
export function issuePath(issue: SchemaIssue): string {
  return (issue.path ?? [])
    .map((segment) =>
      typeof segment === 'object' && segment !== null && 'key' in segment
        ? String(segment.key)
        : String(segment),
    )
    .join('.');
}

/** Each issue as `path: message`, or the message alone for the value's root. */
export function formatIssues(issues: ReadonlyArray<SchemaIssue>): string[] {
  return issues.map((issue) => {
    const path = issuePath(issue);
    return path ? `${path}: ${issue.message}` : issue.message;
  });
}
