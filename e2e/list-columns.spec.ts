import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openSubmenus, signIn, switchLanguage, type DemoAccount } from './support';

const SHOTS = path.join(os.tmpdir(), 'xinli-list-shots');

/**
 * List pages on the kit's DataTable, each with a fixed actions column. `fits`: its columns are
 * chosen to show side by side at 1440 px in both languages (checked softly, so one run names every
 * page and language that does not). The administrator's user list fits beside its 200 px
 * department tree because institution and department share one column.
 */
/** `keep`: headers (either language) that must be seen whole without scrolling sideways, at 1024 px too. */
const LISTS: { name: string; account: DemoAccount; url: string; fits: boolean; keep?: string[] }[] = [
  { name: 'persons', account: 'school', url: '/empower/youngsters', fits: true },
  { name: 'person-list', account: 'school', url: '/empower/individualAssessment', fits: true },
  { name: 'reports', account: 'school', url: '/empower/usersReport', fits: true },
  { name: 'users', account: 'admin', url: '/organization/user', fits: true },
  { name: 'departments', account: 'admin', url: '/organization/dept', fits: true },
  { name: 'scales', account: 'school', url: '/evaluating/evaluationScale', fits: true },
  { name: 'plans', account: 'school', url: '/evaluating/newInstitutionalEvaluation', fits: true },
  { name: 'comments', account: 'school', url: '/evaluating/scaleComments', fits: true },
  { name: 'written-reports', account: 'school', url: '/empower/individualReport', fits: true },
  // Issue 28 item 18: every other list page.
  { name: 'institutions', account: 'provider', url: '/Service/terminal', fits: true },
  { name: 'providers', account: 'admin', url: '/Service/usersManager', fits: true },
  {
    name: 'crisis-warnings',
    account: 'warning',
    url: '/earlyWarning/earlyWarning',
    fits: true,
    keep: ['处理状态', '负责人', 'State', 'Assignee'],
  },
  { name: 'archives', account: 'school', url: '/archives/archives_gl_all', fits: true },
  { name: 'grant-details', account: 'provider', url: '/Datastatistics/Datastatistics', fits: true },
  { name: 'roles', account: 'admin', url: '/authority/roleAdministration', fits: true },
  { name: 'menus', account: 'admin', url: '/authority/earlyWarningC', fits: true },
  { name: 'teams', account: 'school', url: '/task/teamManagement', fits: true },
  { name: 'tasks', account: 'school', url: '/task/administration', fits: true },
  { name: 'registrations', account: 'school', url: '/registration/registrationForm', fits: true },
  { name: 'follow-ups', account: 'school', url: '/registration/followUpManagement', fits: true },
  { name: 'goods', account: 'admin', url: '/operations/goodsManagement', fits: true },
  { name: 'articles', account: 'admin', url: '/operations/dashboards', fits: true },
  { name: 'music', account: 'admin', url: '/operations/musicManagement', fits: true },
  { name: 'classes', account: 'admin', url: '/operations/cloudClassroom', fits: true },
  { name: 'files', account: 'admin', url: '/operations/fileUpload', fits: true },
  // The administrator's orders carry the institution column too: they scroll at 1440 px, the
  // fixed actions column shading what passes under it (checked below).
  { name: 'orders', account: 'admin', url: '/operations/orderManagement', fits: false },
  { name: 'orders-institution', account: 'school', url: '/operations/orderManagement', fits: true },
  { name: 'institutions-admin', account: 'admin', url: '/Service/terminal', fits: true },
];

interface Header {
  text: string;
  left: number;
  right: number;
  fixedEnd: boolean;
  /** The header's text is wider than its cell. */
  clipped: boolean;
  /** The header's text runs over more than one line. */
  wrapped: boolean;
  /** The separating shadow the fixed column draws over what scrolls under it. */
  shadow: string;
}

/** The table's sideways scroll and its header cells, as laid out now. */
function measure(table: Locator) {
  return table.evaluate((wrapper) => {
    const scroller = wrapper.querySelector<HTMLElement>('.ant-table-content, .ant-table-body')!;
    const cells = [...wrapper.querySelectorAll<HTMLElement>('.ant-table-thead > tr > th')].filter(
      (th) => !th.classList.contains('ant-table-cell-scrollbar'),
    );
    const texts = (el: Element) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const nodes: Text[] = [];
      while (walker.nextNode()) if (walker.currentNode.textContent?.trim()) nodes.push(walker.currentNode as Text);
      return nodes;
    };
    const headers = cells.map((th) => {
      const box = th.getBoundingClientRect();
      return {
        text: (th.textContent ?? '').trim(),
        left: box.left,
        right: box.right,
        fixedEnd: th.classList.contains('ant-table-cell-fix-end'),
        // The text itself runs past the cell's edge (th.scrollWidth would also count the shadow a
        // column fixed to the left draws outside its cell).
        clipped: texts(th).some((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          const r = range.getBoundingClientRect();
          return r.right > box.right + 0.5 || r.left < box.left - 0.5;
        }),
        wrapped: texts(th).some((node) => {
          const range = document.createRange();
          range.selectNodeContents(node);
          return range.getClientRects().length > 1;
        }),
        shadow: getComputedStyle(th, '::after').boxShadow,
      };
    });
    return { scrollLeft: scroller.scrollLeft, scrollWidth: scroller.scrollWidth, clientWidth: scroller.clientWidth, headers };
  });
}

/** The fixed actions header and the header laid out just before it. */
function actionsAndBefore(headers: Header[]) {
  const i = headers.findIndex((h) => h.fixedEnd);
  expect(i, 'a fixed actions column').toBeGreaterThan(0);
  return { actions: headers[i], before: headers[i - 1] };
}

function expectHeadersReadable(headers: Header[], where: string) {
  for (const h of headers.filter((x) => x.text)) {
    expect.soft(h.wrapped, `${where}: header "${h.text}" wraps`).toBe(false);
    expect.soft(h.clipped, `${where}: header "${h.text}" is clipped`).toBe(false);
  }
}

/** The opacity of a computed box-shadow's colour (0 for none). */
function shadowAlpha(shadow: string) {
  const rgba = /rgba?\(([^)]*)\)/.exec(shadow);
  if (!rgba) return 0;
  const parts = rgba[1].split(',').map(Number);
  return parts.length === 4 ? parts[3] : 1;
}

/** The element that scrolls the table sideways. */
const scroller = (table: Locator) => table.locator('.ant-table-content, .ant-table-body').first();

/**
 * Resolves once the table's width has stayed the same over two animation frames: antd lays its
 * columns out again from a ResizeObserver after the window changes size.
 */
async function settledLayout(table: Locator) {
  await expect
    .poll(() =>
      scroller(table).evaluate(
        (el) =>
          new Promise<boolean>((resolve) => {
            const before = el.scrollWidth;
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(el.scrollWidth === before)));
          }),
      ),
    )
    .toBe(true);
}

/** A list page's table, once its rows (or its empty state) are drawn. */
async function shownTable(page: Page) {
  const table = page.locator('.list-table:not([data-left])').first();
  await expect(table.locator('tr.ant-table-row, .ant-empty').first()).toBeVisible({ timeout: 60_000 });
  return table;
}

/**
 * Goes to a list page as a user does, by the sidebar (no new load of the console); a page the
 * menu does not list (the report list, opened from other pages) is loaded by its address. The
 * table left behind is marked first, so the wait that follows cannot take it for the new page's.
 */
async function openList(page: Page, url: string) {
  if (new URL(page.url()).pathname === url) return shownTable(page);
  await page.locator('.list-table').evaluateAll((tables) => tables.forEach((t) => t.setAttribute('data-left', '')));
  await openSubmenus(page.getByTestId('side-menu'));
  const item = page.locator(`.app-sidemenu li.ant-menu-item[data-menu-id$="-${url}"]`);
  if ((await item.count()) > 0) {
    await item.click();
    await expect(page).toHaveURL((u) => u.pathname === url);
  } else await page.goto(url);
  return shownTable(page);
}

/** The checks of one list page, at 1440 px and then narrowed to 1024 px as a user narrows the window. */
async function checkList(page: Page, table: Locator, { name, fits, keep = [] }: (typeof LISTS)[number], lang: string) {
  for (const width of [1440, 1024]) {
    if (width !== 1440) {
      await page.setViewportSize({ width, height: 860 });
      await scroller(table).evaluate((el) => (el.scrollLeft = 0));
      await settledLayout(table);
    }
    // The fixed column's offsets are set once antd has measured the columns.
    const fixed = (await table.locator('th.ant-table-cell-fix-end').count()) > 0;
    if (fixed) await expect(table.locator('th.ant-table-cell-fix-end')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}.png`) });
    const where = `${name} ${lang} ${width}`;
    let m = await measure(table);
    expectHeadersReadable(m.headers, where);
    // Every list shows all its columns side by side at 1440 px: nothing under the fixed column.
    if (width === 1440 && fits) expect.soft(m.scrollWidth, `${where}: the table is wider than its box`).toBeLessThanOrEqual(m.clientWidth);
    if (!fixed) {
      // Without a fixed column every header must lie inside the table's box or be reachable by scrolling.
      expect.soft(m.scrollWidth <= m.clientWidth || m.headers.every((h) => h.right > h.left), `${where}: columns`).toBe(true);
      continue;
    }
    let { actions, before } = actionsAndBefore(m.headers);
    const box = await table.boundingBox();
    for (const h of m.headers.filter((x) => keep.includes(x.text)))
      expect
        .soft(h.right, `${where}: "${h.text}" is not seen without scrolling`)
        .toBeLessThanOrEqual(Math.min(actions.left, box!.x + box!.width) + 1);
    if (m.scrollWidth <= m.clientWidth) {
      expect.soft(before.right, `${where}: "${actions.text}" covers "${before.text}"`).toBeLessThanOrEqual(actions.left + 1);
      continue;
    }
    // The table scrolls: at the start the columns that do not fit pass under the actions
    // column, which shows a shadow that can be seen.
    expect(m.scrollLeft).toBe(0);
    expect.soft(shadowAlpha(actions.shadow), `${where}: shadow of "${actions.text}": ${actions.shadow}`).toBeGreaterThanOrEqual(0.12);
    // Scrolled to the end, the last column ends where the actions column starts, and the shadow goes.
    await scroller(table).evaluate((el) => (el.scrollLeft = el.scrollWidth));
    await expect(table.locator('th.ant-table-cell-fix-end-shadow-show')).toHaveCount(0);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${lang}-${width}-end.png`) });
    m = await measure(table);
    ({ actions, before } = actionsAndBefore(m.headers));
    expect.soft(before.right, `${where} scrolled: "${actions.text}" covers "${before.text}"`).toBeLessThanOrEqual(actions.left + 1);
    expect.soft(actions.shadow).toBe('none');
  }
}

/**
 * One test per account: signed in once, it goes from list to list by the sidebar, and again after
 * switching to English in place (a sign-in and two loads for each of 28 lists were most of this
 * file's time). The checks are soft, so one run names every list and language that fails.
 */
test.describe('list tables and their fixed actions column', () => {
  test.describe.configure({ timeout: 480_000 });
  test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

  for (const account of [...new Set(LISTS.map((l) => l.account))]) {
    const lists = LISTS.filter((l) => l.account === account);
    test(`${account}: no header wraps or hides under the fixed actions column (${lists.map((l) => l.name).join(', ')}), zh and en, 1440 and 1024 px`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1440, height: 860 });
      await signIn(page, account);
      for (const lang of ['zh-CN', 'en-US'] as const) {
        await switchLanguage(page, lang);
        for (const list of lists) {
          await page.setViewportSize({ width: 1440, height: 860 });
          await checkList(page, await openList(page, list.url), list, lang);
        }
      }
    });
  }
});
