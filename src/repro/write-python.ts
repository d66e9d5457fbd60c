import type { HarFile } from '../../schemas/network';
import { describeExpectation, type Expectation } from './expectation';
import type { LocatorChoice } from './locator';
import { recordedResponses } from './offline-responses';
import type { PlanAction, PlanValue, ReproPlan } from './repro-plan';
import { headerLines, SETTLE_MS, type ScriptOptions } from './script-header';
import { asciiJson, commentText, pyString } from './script-quote';

/** A locator in Playwright for Python's sync API; every string through `pyString`. */
export function pyLocator(choice: LocatorChoice): string {
  switch (choice.kind) {
    case 'testid':
      return `page.get_by_test_id(${pyString(choice.value)})`;
    case 'role':
      return `page.get_by_role(${pyString(choice.role)}, name=${pyString(choice.name)}, exact=True)`;
    case 'label':
      return `page.get_by_label(${pyString(choice.value)}, exact=True)`;
    case 'text':
      return `page.get_by_text(${pyString(choice.value)}, exact=True)`;
    case 'css':
      return `page.locator(${pyString(choice.value)})`;
  }
}

const pyValue = (value: PlanValue) => (value.kind === 'literal' ? pyString(value.text) : `os.environ.get(${pyString(value.withheld.env)}, ${pyString(value.withheld.placeholder)})`);
const I = '        ';

function pyAction(action: PlanAction, failureStep: number | null): string[] {
  if (action.op === 'comment') return [`${I}# step ${action.step}: ${commentText(action.text)}`];
  const lines = [`${I}# step ${action.step}: ${commentText(action.key)}${action.step === failureStep ? ' (the failure followed this step)' : ''}`];
  if (action.op === 'goto') return [...lines, `${I}page.goto(${pyString(action.url)})`];
  if (action.locators.length > 1) lines.push(`${I}# also found by: ${commentText(action.locators.slice(1).map(pyLocator).join(' | '))}`);
  const locator = pyLocator(action.locators[0]!);
  if ((action.op === 'fill' || action.op === 'select') && action.value.kind === 'env') lines.push(`${I}# withheld in the bundle: ${action.value.withheld.env}`);
  switch (action.op) {
    case 'click':
      lines.push(`${I}${locator}.click()`);
      break;
    case 'fill':
      lines.push(`${I}${locator}.fill(${pyValue(action.value)})`);
      break;
    case 'select':
      lines.push(`${I}${locator}.select_option(${pyValue(action.value)})`);
      break;
    case 'press':
      lines.push(`${I}${locator}.press(${pyString(action.keyName)})`);
      break;
  }
  return lines;
}

function pyExpectation(expectation: Expectation | null): { listen: string[]; settle: string[]; check: string[] } {
  if (!expectation || expectation.kind === 'unchecked') return { listen: [], settle: [], check: expectation ? [`${I}# ${commentText(describeExpectation(expectation))}`] : [] };
  const listen: string[] = [];
  switch (expectation.kind) {
    case 'response':
      listen.push(
        `${I}def on_response(response):`,
        `${I}    if response.request.method == ${pyString(expectation.method)} and urlparse(response.url).path == ${pyString(expectation.path)} and response.status // 100 == ${expectation.statusClass}:`,
        `${I}        failures.append("%s %s %d" % (response.request.method, response.url, response.status))`,
        `${I}page.on("response", on_response)`,
      );
      break;
    case 'request_failed':
      listen.push(
        `${I}def on_request_failed(request):`,
        `${I}    if request.method == ${pyString(expectation.method)} and urlparse(request.url).path == ${pyString(expectation.path)}:`,
        `${I}        failures.append("%s %s" % (request.method, request.url))`,
        `${I}page.on("requestfailed", on_request_failed)`,
      );
      break;
    case 'exception':
      listen.push(`${I}page.on("pageerror", lambda error: failures.append(error.message) if ${pyString(expectation.firstLine.replace(/^Uncaught (?:\(in promise\) )?/, ''))} in error.message else None)`);
      break;
    case 'console_error':
      listen.push(`${I}page.on("console", lambda message: failures.append(message.text) if message.type == "error" and ${pyString(expectation.firstLine)} in message.text else None)`);
      break;
    case 'crash':
      listen.push(`${I}page.on("crash", lambda _page: failures.append("the page crashed"))`);
      break;
  }
  return {
    listen,
    settle: [
      `${I}# Give the recorded failure up to ${SETTLE_MS / 1000} s to happen again (the page may already be idle), then: did it?`,
      `${I}page.wait_for_load_state("networkidle")`,
      `${I}for _ in range(${SETTLE_MS / 100}):`,
      `${I}    if failures:`,
      `${I}        break`,
      `${I}    page.wait_for_timeout(100)`,
    ],
    check: [`${I}assert not failures, ${pyString(`the recorded failure happened again: ${describeExpectation(expectation)}: `)} + ", ".join(failures)`],
  };
}

function pyOffline(har: HarFile): string[] {
  return [
    `RECORDED = json.loads(${pyString(asciiJson(recordedResponses(har).map(({ omitted: _omitted, ...r }) => r)))})`,
    '',
    '',
    'def path_of(url):',
    '    u = urlparse(url)',
    '    return "%s://%s%s" % (u.scheme, u.netloc, u.path)',
    '',
    '',
    'def answer_from_bundle(page, unrecorded):',
    '    used = set()',
    '',
    '    def answer(route):',
    '        method, url = route.request.method, route.request.url',
    '        found = [n for n, r in enumerate(RECORDED) if n not in used and r["method"] == method and r["url"] == url]',
    '        found = found or [n for n, r in enumerate(RECORDED) if n not in used and r["method"] == method and path_of(r["url"]) == path_of(url)]',
    '        found = found or [n for n, r in enumerate(RECORDED) if r["method"] == method and path_of(r["url"]) == path_of(url)][-1:]',
    '        if not found:',
    '            unrecorded.append("%s %s" % (method, url))',
    '            route.abort()',
    '            return',
    '        used.add(found[0])',
    '        r = RECORDED[found[0]]',
    '        body = base64.b64decode(r["body"]) if r["base64"] else r["body"]',
    '        route.fulfill(status=r["status"], content_type=r["contentType"], body=body)',
    '',
    '    page.route("**/*", answer)',
    '',
    '',
  ];
}

/** A Playwright for Python script (sync API) replaying the plan, as `writeTs` does; run it with `python3 <file>`. */
export function writePython(plan: ReproPlan, har: HarFile | null, options: ScriptOptions): string {
  const header = headerLines(plan, options, 'The script fails (AssertionError) while it still happens.');
  const { listen, settle, check } = pyExpectation(plan.expectation);
  const offline = options.offline && har !== null;
  const viewport = plan.viewport ? `viewport={"width": ${Math.round(plan.viewport.width)}, "height": ${Math.round(plan.viewport.height)}}` : '';
  return [
    ...header.map((line) => `# ${commentText(line, 400)}`),
    'import base64',
    'import json',
    'import os',
    'from urllib.parse import urlparse',
    '',
    'from playwright.sync_api import sync_playwright',
    '',
    ...(offline ? pyOffline(har) : ['', '']),
    'def main():',
    '    with sync_playwright() as playwright:',
    '        browser = playwright.chromium.launch()',
    `        context = browser.new_context(${viewport})`,
    '        page = context.new_page()',
    '        failures = []',
    ...(offline ? ['        unrecorded = []', '        answer_from_bundle(page, unrecorded)'] : []),
    ...listen,
    ...plan.actions.flatMap((action) => pyAction(action, plan.failureStep)),
    ...settle,
    // Before the check, which raises when the failure happened.
    ...(offline ? [`${I}if unrecorded:`, `${I}    print("not in the bundle, aborted: " + ", ".join(unrecorded))`] : []),
    ...check,
    '        browser.close()',
    '',
    '',
    'if __name__ == "__main__":',
    '    main()',
    '',
  ].join('\n');
}
