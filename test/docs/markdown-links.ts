import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A relative link of a Markdown page that leads nowhere. */
export interface BrokenLink {
  /** The page, relative to the root. */
  readonly file: string;
  readonly line: number;
  readonly target: string;
  readonly problem: string;
}

/** The pages whose links are checked: the README, SECURITY.md and everything under docs/. */
export function markdownPages(root: string): string[] {
  const underDocs = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? underDocs(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : [],
    );
  return ['README.md', 'SECURITY.md', ...underDocs('docs')];
}

/** Every relative link (and image) of `pages` whose file or `#anchor` does not exist. */
export function brokenLinks(root: string, pages: readonly string[] = markdownPages(root)): BrokenLink[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    let set = anchors.get(file);
    if (!set) anchors.set(file, (set = headingAnchors(readFileSync(file, 'utf8'))));
    return set;
  };
  const broken: BrokenLink[] = [];
  for (const page of pages) {
    const file = join(root, page);
    for (const { target, line } of relativeLinks(readFileSync(file, 'utf8'))) {
      const [path = '', anchor] = splitAnchor(target);
      const destination = path ? resolve(dirname(file), decodeURIComponent(path)) : file;
      const report = (problem: string) => broken.push({ file: page, line, target, problem });
      if (!existsSync(destination)) report(`no such file: ${relative(root, destination)}`);
      else if (anchor !== undefined && statSync(destination).isFile() && destination.endsWith('.md')) {
        if (!anchorsOf(destination).has(anchor.toLowerCase()))
          report(`no heading #${anchor} in ${relative(root, destination)}`);
      }
    }
  }
  return broken;
}

function splitAnchor(target: string): [string, string | undefined] {
  const hash = target.indexOf('#');
  return hash < 0 ? [target, undefined] : [target.slice(0, hash), target.slice(hash + 1)];
}

/** The text outside fenced code blocks, line by line (fenced lines are blanked, numbers kept). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (opening && opening[0] === fence[0] && opening.length >= fence.length) fence = undefined;
      return '';
    }
    if (opening) {
      fence = opening;
      return '';
    }
    return line;
  });
}

/** Links and images whose target is a path or an anchor, not a URL; inline code is skipped. */
function relativeLinks(markdown: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  proseLines(markdown).forEach((text, i) => {
    const prose = text.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
    const inline = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/;
    const targets = [...prose.matchAll(inline)].map((m) => m[1]!);
    const ref = reference.exec(prose)?.[1];
    if (ref) targets.push(ref);
    for (const target of targets)
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) found.push({ target, line: i + 1 });
  });
  return found;
}

/** The anchors GitHub gives a page's headings (lower case, punctuation dropped, `-1` for repeats). */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_~]/g, (c) => (c === '_' ? '_' : ''));
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}
