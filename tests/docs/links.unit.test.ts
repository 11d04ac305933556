import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

const markdownFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchorOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

const anchorsIn = (file: string): Set<string> =>
  new Set([...readFileSync(file, 'utf8').matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));

/** Every link of a Markdown file that is not to another site: `[text](target)`, outside code blocks. */
const relativeLinks = (file: string): string[] =>
  [...readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '').matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));

const documents = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('links in README.md and docs/', () => {
  it('finds the documents and their links', () => {
    expect(documents.length).toBeGreaterThan(3);
    expect(relativeLinks(join(root, 'README.md'))).toEqual(expect.arrayContaining(['docs/spec/billing-api.md', 'docs/api-reference.md']));
  });

  it.each(documents.map((file) => [relative(root, file), file]))('every relative link of %s resolves', (_name, file) => {
    const broken = relativeLinks(file).filter((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const linked = path ? join(dirname(file), decodeURI(path)) : file;
      if (!existsSync(linked)) return true;
      return anchor !== undefined && linked.endsWith('.md') && !anchorsIn(linked).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});
