// The accessibility check every e2e page pass uses: axe-core with WCAG 2.1 A/AA rules, reporting
// only serious and critical violations, each as one readable line.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The serious and critical WCAG 2.1 A/AA violations on the page as it is now, each prefixed with `label`. */
export async function seriousViolations(page: Page, label: string, scope: (b: AxeBuilder) => AxeBuilder = (b) => b): Promise<string[]> {
  // resultTypes: axe still finds every violation, but keeps one node per passed or inapplicable
  // rule instead of all of them, which is most of its work on a large page.
  const builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).options({ resultTypes: ['violations'] });
  const result = await scope(builder).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}
