// No Node imports: the Settings form validates with this same schema in the browser.
import { z } from 'zod';

/**
 * Text file types a skill import accepts by default (lower case, no dot): documentation, data and
 * config formats, and the script and source languages skills ship. Files without an extension and
 * dotfiles (LICENSE, Makefile, .gitignore) are accepted when their content is text.
 */
// biome-ignore format: a word list, grouped by kind
export const DEFAULT_TEXT_FILE_TYPES = [
  // documents
  'md', 'markdown', 'mdx', 'txt', 'text', 'rst', 'adoc', 'org', 'tex', 'log',
  // data and config
  'json', 'jsonc', 'json5', 'jsonl', 'ndjson', 'yaml', 'yml', 'toml', 'ini', 'cfg', 'conf', 'env', 'properties',
  'xml', 'xsd', 'xsl', 'xslt', 'dtd', 'csv', 'tsv', 'svg', 'graphql', 'gql', 'proto', 'lock', 'example', 'sample',
  'template', 'tmpl', 'tpl', 'j2', 'jinja', 'jinja2', 'hbs', 'mustache', 'diff', 'patch', 'gitignore', 'editorconfig',
  'dockerfile', 'mk', 'cmake', 'gradle', 'tf', 'hcl', 'nix',
  // web
  'html', 'htm', 'css', 'scss', 'sass', 'less', 'vue', 'svelte', 'astro',
  // scripts and sources
  'py', 'pyi', 'ipynb', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'sh', 'bash', 'zsh', 'fish', 'ps1', 'psm1',
  'bat', 'cmd', 'rb', 'pl', 'pm', 'php', 'lua', 'r', 'jl', 'go', 'rs', 'java', 'kt', 'kts', 'scala', 'groovy', 'swift',
  'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'cs', 'fs', 'm', 'sql', 'awk', 'sed', 'vim', 'el', 'clj', 'ex', 'exs',
  'erl', 'hs', 'ml', 'dart', 'zig', 'nim', 'v', 'sol',
] as const;

const extension = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_+-]{0,15}$/, 'a file extension without the dot, e.g. png');
const extensions = (max: number) =>
  z
    .array(extension)
    .max(max)
    .refine((list) => new Set(list).size === list.length, 'name each extension once');

/** The skills settings that decide what an import may bring in (spread into the skills settings schema). */
export const importPolicyFields = {
  allowUploadedArchives: z
    .boolean()
    .default(true)
    .describe('Accept skill archives uploaded from the console or the API; off refuses uploads before any byte is stored'),
  allowedFileTypes: extensions(300)
    .default([...DEFAULT_TEXT_FILE_TYPES])
    .describe('Extensions of text files an import may hold (lower case, no dot); their content must be text'),
  allowedBinaryFileTypes: extensions(100)
    .default([])
    .describe('Extensions accepted whatever their content, e.g. png, pdf (native executables still need allowBinaryFiles)'),
  allowBinaryFiles: z.boolean().default(false).describe('Accept every file an import holds, native executables and archives included'),
};
