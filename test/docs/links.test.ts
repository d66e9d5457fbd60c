import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/doc-block';
import { brokenLinks, markdownFiles } from './markdown-links';

// README.md, docs/, clients/python/README.md, bench/results/ and every other markdown file of the
// checkout: no relative link points to a file that is not there or to a heading that is not there.
describe('links in the docs', () => {
  const files = markdownFiles(REPO_ROOT);

  it('cover the README, the docs tree and the Python client', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/README.md', 'docs/drivers/README.md', 'clients/python/README.md']));
  });

  it.each(files)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(REPO_ROOT, file)).toEqual([]);
  });
});
