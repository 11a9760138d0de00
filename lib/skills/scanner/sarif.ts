/** SARIF 2.1.0 export of a scan, for code-scanning tools and CI. */
import type { FindingSeverity, ScanResult } from '../types';
import { SCAN_RULES } from './catalog';

const LEVEL: Record<FindingSeverity, 'error' | 'warning' | 'note'> = { critical: 'error', warn: 'warning', info: 'note' };

/** A relative skill path as a URI reference: each segment percent-encoded, slashes kept. */
function toUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

export function toSarif(skillName: string, result: ScanResult): object {
  const ruleIndex = new Map(SCAN_RULES.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'skilldock-scanner',
            rules: SCAN_RULES.map((r) => ({
              id: r.id,
              name: r.title,
              shortDescription: { text: r.title },
              fullDescription: { text: r.description },
              defaultConfiguration: { level: LEVEL[r.severity] },
              properties: { severity: r.severity },
            })),
          },
        },
        automationDetails: { id: `skill/${skillName}` },
        invocations: [
          {
            executionSuccessful: result.verdict !== 'error',
            ...(result.error ? { toolExecutionNotifications: [{ level: 'error', message: { text: result.error } }] } : {}),
          },
        ],
        results: result.findings.map((f) => ({
          ruleId: f.rule,
          ...(ruleIndex.has(f.rule) ? { ruleIndex: ruleIndex.get(f.rule) } : {}),
          level: LEVEL[f.severity],
          message: { text: f.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: toUri(f.file) },
                region: { startLine: f.line, snippet: { text: f.excerpt } },
              },
            },
          ],
          properties: { severity: f.severity },
        })),
        properties: { skill: skillName, verdict: result.verdict, filesScanned: result.filesScanned },
      },
    ],
  };
}
