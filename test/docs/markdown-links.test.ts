import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, githubSlug, headingAnchors, linkTargets, markdownFiles } from './markdown-links';

const root = mkdtempSync(path.join(os.tmpdir(), 'afr-links-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), text);
}

describe('githubSlug', () => {
  it.each([
    ['From the automation side: `globalThis.afr` in the service worker', 'from-the-automation-side-globalthisafr-in-the-service-worker'],
    ['`afr redact`: mask an existing bundle again', 'afr-redact-mask-an-existing-bundle-again'],
    ['Branded Google Chrome: `loadRecorder` and `load_recorder`', 'branded-google-chrome-loadrecorder-and-load_recorder'],
    ['Where bundles go under each driver, and how to keep them', 'where-bundles-go-under-each-driver-and-how-to-keep-them'],
    ['Reading a bundle piece by piece (for a person or an agent)', 'reading-a-bundle-piece-by-piece-for-a-person-or-an-agent'],
    ['Launch with **the switch** and [a link](x.md)', 'launch-with-the-switch-and-a-link'],
  ])('%s → %s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });
});

describe('headingAnchors', () => {
  it('numbers a repeated heading and ignores "#" lines inside code', () => {
    const anchors = headingAnchors('# Title\n## Setup\n```sh\n# not a heading\n```\n## Setup\n### Setup ###\n');
    expect([...anchors]).toEqual(['title', 'setup', 'setup-1', 'setup-2']);
  });
});

describe('linkTargets', () => {
  it('finds links, images and definitions, not what code shows', () => {
    const text = '[a](a.md) ![pic](images/p.png "title") `[b](b.md)`\n```md\n[c](c.md)\n```\n[d]: d.md#part\n';
    expect(linkTargets(text)).toEqual(['a.md', 'images/p.png', 'd.md#part']);
  });
});

describe('brokenLinks', () => {
  write('docs/guide.md', '# Guide\n## First steps\n');
  write('docs/images/p.png', '');
  write('README.md', '# Top\n## Local part\n');

  it('passes links to files, folders, headings of this file and of another, and skips other schemes', () => {
    write(
      'docs/ok.md',
      '[g](guide.md) [g2](guide.md#first-steps) [here](#ok) [top](../README.md#local-part) [dir](images/) [pic](images/p.png) [web](https://example.com/x#y) [mail](mailto:a@b.c)\n# OK\n',
    );
    expect(brokenLinks(root, 'docs/ok.md')).toEqual([]);
  });

  it('fails a link to a missing file, a missing heading, a missing heading of this file, and a path out of the tree', () => {
    write('docs/bad.md', '# Bad\n[gone](gone.md) [anchor](guide.md#second-steps) [self](#nowhere) [out](../../elsewhere.md)\n');
    expect(brokenLinks(root, 'docs/bad.md')).toEqual([
      'docs/bad.md: gone.md: no such file docs/gone.md',
      'docs/bad.md: guide.md#second-steps: docs/guide.md has no heading #second-steps',
      'docs/bad.md: #nowhere: docs/bad.md has no heading #nowhere',
      'docs/bad.md: ../../elsewhere.md: no such file ../elsewhere.md',
    ]);
  });

  it('finds markdown files, leaving out node_modules and hidden folders', () => {
    // Joined, not written as one path: the dependency check reads `node_modules/<name>` in code as a package used.
    write(path.join('node_modules', 'pkg', 'README.md'), '[x](nowhere.md)');
    write('.hidden/notes.md', '[x](nowhere.md)');
    expect(markdownFiles(root).sort()).toEqual(['README.md', 'docs/bad.md', 'docs/guide.md', 'docs/ok.md'].sort());
  });
});
