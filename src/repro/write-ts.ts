import { describeExpectation, type Expectation } from './expectation';
import type { LocatorChoice } from './locator';
import { recordedResponses } from './offline-responses';
import type { HarFile } from '../../schemas/network';
import type { PlanAction, PlanValue, ReproPlan } from './repro-plan';
import { headerLines, SETTLE_MS, type ScriptOptions } from './script-header';
import { asciiJson, commentText, tsString } from './script-quote';

/** A locator in Playwright's TypeScript API; every string through `tsString`. */
export function tsLocator(choice: LocatorChoice): string {
  switch (choice.kind) {
    case 'testid':
      return `page.getByTestId(${tsString(choice.value)})`;
    case 'role':
      return `page.getByRole(${tsString(choice.role)}, { name: ${tsString(choice.name)}, exact: true })`;
    case 'label':
      return `page.getByLabel(${tsString(choice.value)}, { exact: true })`;
    case 'text':
      return `page.getByText(${tsString(choice.value)}, { exact: true })`;
    case 'css':
      return `page.locator(${tsString(choice.value)})`;
  }
}

const tsValue = (value: PlanValue) => (value.kind === 'literal' ? tsString(value.text) : `process.env[${tsString(value.withheld.env)}] ?? ${tsString(value.withheld.placeholder)}`);

function tsAction(action: PlanAction, failureStep: number | null): string[] {
  const lines = [`  // step ${action.step}: ${commentText(action.key)}${action.step === failureStep ? ' (the failure followed this step)' : ''}`];
  switch (action.op) {
    case 'comment':
      return [`  // step ${action.step}: ${commentText(action.text)}`];
    case 'goto':
      lines.push(`  await page.goto(${tsString(action.url)});`);
      break;
    case 'click':
      lines.push(`  await ${tsLocator(action.locators[0]!)}.click();`);
      break;
    case 'fill':
      if (action.value.kind === 'env') lines.push(`  // withheld in the bundle: ${action.value.withheld.env}`);
      lines.push(`  await ${tsLocator(action.locators[0]!)}.fill(${tsValue(action.value)});`);
      break;
    case 'select':
      if (action.value.kind === 'env') lines.push(`  // withheld in the bundle: ${action.value.withheld.env}`);
      lines.push(`  await ${tsLocator(action.locators[0]!)}.selectOption(${tsValue(action.value)});`);
      break;
    case 'press':
      lines.push(`  await ${tsLocator(action.locators[0]!)}.press(${tsString(action.keyName)});`);
      break;
  }
  if (action.op !== 'goto' && action.locators.length > 1) lines.splice(1, 0, `  // also found by: ${commentText(action.locators.slice(1).map((c) => tsLocator(c)).join(' | '))}`);
  return lines;
}

/** Listeners that collect the recorded failure's signal, and the check after the last step. */
function tsExpectation(expectation: Expectation | null): { listen: string[]; settle: string[]; check: string[] } {
  if (!expectation || expectation.kind === 'unchecked') return { listen: [], settle: [], check: expectation ? [`  // ${commentText(describeExpectation(expectation))}`] : [] };
  const listen = ['  const failures: string[] = [];'];
  switch (expectation.kind) {
    case 'response':
      listen.push(
        '  page.on("response", (response) => {',
        '    const request = response.request();',
        `    if (request.method() === ${tsString(expectation.method)} && new URL(response.url()).pathname === ${tsString(expectation.path)} && Math.floor(response.status() / 100) === ${expectation.statusClass}) failures.push(\`\${request.method()} \${response.url()} \${response.status()}\`);`,
        '  });',
      );
      break;
    case 'request_failed':
      listen.push(`  page.on("requestfailed", (request) => { if (request.method() === ${tsString(expectation.method)} && new URL(request.url()).pathname === ${tsString(expectation.path)}) failures.push(\`\${request.method()} \${request.url()} \${request.failure()?.errorText}\`); });`);
      break;
    case 'exception':
      listen.push(`  page.on("pageerror", (error) => { if (error.message.includes(${tsString(expectation.firstLine.replace(/^Uncaught (?:\(in promise\) )?/, ''))})) failures.push(error.message); });`);
      break;
    case 'console_error':
      listen.push(`  page.on("console", (message) => { if (message.type() === "error" && message.text().includes(${tsString(expectation.firstLine)})) failures.push(message.text()); });`);
      break;
    case 'crash':
      listen.push('  page.on("crash", () => failures.push("the page crashed"));');
      break;
  }
  return {
    listen,
    // `networkidle` reached before the last step counts as reached: the failure is also waited for, 5 s at most.
    settle: [
      `  // Give the recorded failure up to ${SETTLE_MS / 1000} s to happen again (the page may already be idle), then: did it?`,
      '  await page.waitForLoadState("networkidle");',
      `  for (let waited = 0; failures.length === 0 && waited < ${SETTLE_MS}; waited += 100) await page.waitForTimeout(100);`,
    ],
    check: [`  expect(failures, ${tsString(`the recorded failure: ${describeExpectation(expectation)}`)}).toEqual([]);`],
  };
}

/** The offline router: the bundle's responses by method, URL and order (`offline-responses.ts`, inlined). */
function tsOffline(har: HarFile): string[] {
  return [
    `const RECORDED: { method: string; url: string; status: number; contentType: string; body: string; base64: boolean }[] = ${asciiJson(recordedResponses(har).map(({ omitted: _omitted, ...r }) => r))};`,
    '',
    'function pathOf(url: string): string {',
    '  const u = new URL(url);',
    '  return u.origin + u.pathname;',
    '}',
    '',
    'async function answerFromBundle(page: Page, unrecorded: string[]): Promise<void> {',
    '  const used = new Set<number>();',
    '  await page.route("**/*", async (route) => {',
    '    const request = route.request();',
    '    const method = request.method();',
    '    const url = request.url();',
    '    let i = RECORDED.findIndex((r, n) => !used.has(n) && r.method === method && r.url === url);',
    '    if (i < 0) i = RECORDED.findIndex((r, n) => !used.has(n) && r.method === method && pathOf(r.url) === pathOf(url));',
    '    if (i < 0) i = RECORDED.findLastIndex((r) => r.method === method && pathOf(r.url) === pathOf(url));',
    '    if (i < 0) {',
    '      unrecorded.push(`${method} ${url}`);',
    '      return route.abort();',
    '    }',
    '    used.add(i);',
    '    const r = RECORDED[i]!;',
    '    return route.fulfill({ status: r.status, contentType: r.contentType, body: r.base64 ? Buffer.from(r.body, "base64") : r.body });',
    '  });',
    '}',
    '',
  ];
}

/**
 * A Playwright test (`@playwright/test`) replaying the plan: one locator per step as a person writes it,
 * the original viewport, withheld values from the environment, and the recorded failure as the final
 * expectation (the test fails while the failure happens, passes once it is fixed).
 */
export function writeTs(plan: ReproPlan, har: HarFile | null, options: ScriptOptions): string {
  const header = headerLines(plan, options, 'The test fails while it still happens and passes once it is fixed.');
  const { listen, settle, check } = tsExpectation(plan.expectation);
  const offline = options.offline && har !== null;
  const lines = [
    ...header.map((line) => `// ${commentText(line, 400)}`),
    `import { test, expect${offline ? ', type Page' : ''} } from "@playwright/test";`,
    '',
    ...(plan.viewport ? [`test.use({ viewport: { width: ${Math.round(plan.viewport.width)}, height: ${Math.round(plan.viewport.height)} } });`, ''] : []),
    ...(offline ? tsOffline(har) : []),
    `test(${tsString(`reproduces bundle ${plan.bundleId}`)}, async ({ page }) => {`,
    ...(offline ? ['  const unrecorded: string[] = [];', '  await answerFromBundle(page, unrecorded);'] : []),
    ...listen,
    ...plan.actions.flatMap((action) => tsAction(action, plan.failureStep)),
    ...settle,
    // Before the check, which throws when the failure happened.
    ...(offline ? ['  if (unrecorded.length > 0) console.log(`not in the bundle, aborted: ${unrecorded.join(", ")}`);'] : []),
    ...check,
    '});',
    '',
  ];
  return lines.join('\n');
}
