/**
 * The variables host config files use inside strings, replaced as those hosts replace them:
 * `${env:NAME}` and `${input:id}` (VS Code, Cursor), `${NAME}` and `${NAME:-default}` (Claude
 * Code; the default when NAME is unset or empty), and the predefined `${workspaceFolder}`,
 * `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${/}`. Unlike the hosts,
 * an unset variable is not replaced by an empty string: it is reported, so that a missing token
 * is named at load time instead of failing later as an empty header. Anything else (`${command:…}`,
 * `${config:…}`) is reported as unsupported.
 */
import { homedir } from 'node:os';
import path from 'node:path';

export interface VariableScope {
  environment: Record<string, string | undefined>;
  /** The value of each `${input:id}` the file uses, resolved beforehand. */
  inputs: ReadonlyMap<string, string>;
  workspaceFolder: string;
}

const REFERENCE = /\$\{([^}]*)\}/g;

/** A variable's value; never an Object.prototype member (`${constructor}` is just unset). */
const variable = (environment: VariableScope['environment'], name: string) =>
  Object.hasOwn(environment, name) ? environment[name] : undefined;
const SHELL_STYLE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** The ids of the `${input:id}` references in `text`. */
export function inputsIn(text: string): string[] {
  return [...text.matchAll(REFERENCE)]
    .map((match) => match[1] as string)
    .filter((inner) => inner.startsWith('input:'))
    .map((inner) => inner.slice('input:'.length));
}

function predefined(name: string, scope: VariableScope): string | undefined {
  switch (name) {
    case 'workspaceFolder':
      return scope.workspaceFolder;
    case 'workspaceFolderBasename':
      return path.basename(scope.workspaceFolder);
    case 'userHome':
      return homedir();
    case 'pathSeparator':
    case '/':
      return path.sep;
    default:
      return undefined;
  }
}

/**
 * `text` with its variables replaced. Each one that cannot be is passed to `problem` (in words:
 * what is unset or unsupported) and left as written.
 */
export function substitute(text: string, scope: VariableScope, problem: (what: string) => void): string {
  return text.replace(REFERENCE, (written, inner: string) => {
    const known = predefined(inner, scope);
    if (known !== undefined) return known;
    if (inner.startsWith('env:')) {
      const name = inner.slice('env:'.length);
      const value = variable(scope.environment, name);
      if (value !== undefined) return value;
      problem(`${written}: ${name} is not set`);
      return written;
    }
    if (inner.startsWith('input:')) {
      const value = scope.inputs.get(inner.slice('input:'.length));
      if (value !== undefined) return value;
      problem(`${written}: no value was given for input '${inner.slice('input:'.length)}'`);
      return written;
    }
    const shell = SHELL_STYLE.exec(inner);
    if (shell) {
      const [, name, fallback] = shell as unknown as [string, string, string | undefined];
      const value = variable(scope.environment, name);
      if (value !== undefined && (value !== '' || fallback === undefined)) return value;
      if (fallback !== undefined) return fallback;
      problem(`${written}: ${name} is not set (\${${name}:-default} gives a default)`);
      return written;
    }
    problem(`${written} is not a variable this client can replace: write the value, or \${env:NAME}`);
    return written;
  });
}
