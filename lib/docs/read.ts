import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { helpPage } from './pages';

/**
 * The Markdown of an allowlisted docs page, read from docs/ beside the running server (`npm start`
 * runs from the repository, which holds docs/); undefined for a name not on the list.
 */
export function readHelpPage(name: string, root = process.cwd()): string | undefined {
  const page = helpPage(name);
  if (!page) return undefined;
  return fs.readFileSync(path.join(/*turbopackIgnore: true*/ root, 'docs', `${page.name}.md`), 'utf8');
}
