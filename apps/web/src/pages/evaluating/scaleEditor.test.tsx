import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { FormDefinition } from '@xinli/contract';
import '../../i18n';

// antd's tabs and text areas observe their size; jsdom has no ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

/** The editor talks to the server only through `call`: record what it sends. */
const calls: { name: string; input: unknown }[] = [];
let saved: object | null = null;
/** Scales the server holds besides the one saved (as F0001), by code. */
const held = new Map<string, FormDefinition>();
vi.mock('../../api', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../api')>();
  return {
    ...real,
    call: vi.fn(async (name: string, input: unknown) => {
      calls.push({ name, input });
      if (name === 'as.m.app.getAppList') return [{ appid: '000000002', appname: '青少年学生', scenecode: '', iconurl: '' }];
      if (name === 'as.m.assess.forms.insertForm') {
        saved = (input as { definition: object }).definition;
        return { formcode: 'F0001', version: 1 };
      }
      if (name === 'as.m.assess.forms.getForm') {
        const { formcode } = input as { formcode: string };
        const definition = formcode === 'F0001' && saved ? { ...saved, formcode, version: 1 } : held.get(formcode);
        if (definition)
          return { form: { formcode, formname: (definition as FormDefinition).formname.zh, builtin: false }, definition, versions: [] };
      }
      throw new real.ApiError('unexpected call ' + name, -1);
    }),
  };
});

// Staff holding the scale library's code (00003): the editor may read and save scales.
vi.mock('../../auth', async (original) => {
  const real = await original<typeof import('../../auth')>();
  return {
    ...real,
    usePermission: () => ({ roles: ['00003'], hasCode: (c: string) => c === '00003', hasAny: (...c: string[]) => c.includes('00003') }),
  };
});

const { default: ScaleEditor } = await import('./scale-editor/ScaleEditor');

function renderEditor(onClose: () => void = () => undefined, formcode: string | null = null) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ScaleEditor open formcode={formcode} onClose={onClose} />
      </App>
    </QueryClientProvider>,
  );
}

const inputIn = async (id: string) => {
  const el = await screen.findByTestId(id);
  return (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? el : el.querySelector('input, textarea')) as HTMLInputElement;
};
const type = async (id: string, value: string) => fireEvent.change(await inputIn(id), { target: { value } });
const click = async (id: string) => fireEvent.click(await screen.findByTestId(id));
// The editor's tab strip: role queries over the whole drawer (hundreds of fields) take seconds in jsdom.
const tabs = () => within(document.querySelector<HTMLElement>('[role=tablist]')!);
/** A tab of the editor, by its label: the items and indicators tabs are drawn when first shown. */
const openTab = async (label: string) => {
  await waitFor(() => expect(document.querySelector('[role=tablist]')).not.toBeNull());
  fireEvent.click(tabs().getByRole('tab', { name: label }));
};
const selectedTab = () => tabs().getByRole('tab', { selected: true }).textContent;
const shownItems = () => screen.queryAllByTestId(/^question-\d+$/).map((el) => Number(el.dataset.testid!.slice('question-'.length)));

/** A saved scale of `count` yes/no items with a total. */
function longScale(formcode: string, count: number): FormDefinition {
  return {
    formcode,
    formname: { zh: '长量表', en: '' },
    formtype: '01',
    appids: [],
    instructions: { zh: '', en: '' },
    version: 1,
    licence: { zh: '', en: '' },
    source: '',
    fulltext: true,
    questions: Array.from({ length: count }, (_, i) => ({
      no: i + 1,
      type: 1 as const,
      required: true,
      reverse: false,
      text: { zh: `题目${i + 1}`, en: '' },
      options: [
        { text: { zh: '否', en: '' }, score: 0 },
        { text: { zh: '是', en: '' }, score: 1 },
      ],
    })),
    indicators: [
      { code: 'total', name: { zh: '总分', en: '' }, kind: 'total', formula: { op: 'sum' }, transforms: [], precision: 0, bands: [] },
    ],
    critical: [],
    validity: [],
    screening: [],
    conventions: [],
  } as FormDefinition;
}

describe('scale editor form -> definition', { timeout: 180_000 }, () => {
  beforeEach(() => {
    calls.length = 0;
  });

  it('saves what was typed as a definition: numbered items, preset options, reversal, band and factor', async () => {
    renderEditor();
    await type('scale-formname', '  测试量表 ');

    await openTab('题目');
    await click('add-single');
    await click('add-single');
    await type('q1-text', '心情低落');
    await type('q2-text', '精力充沛');
    for (const no of [1, 2]) {
      for (let o = 1; o <= 4; o++) await type(`q${no}-opt${o}-text`, `选项${o}`);
    }
    await click('q2-reverse');

    await openTab('指标与分段');
    await type('ind0-name', '总分');
    await click('ind0-add-band');
    await type('ind0-band0-max', '6');
    await type('ind0-band0-label', '全部');
    await click('add-factor');
    await type('ind1-name', '因子一');
    await type('ind1-items', '1，2');

    await act(async () => {
      await click('scale-save');
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.assess.forms.insertForm')).toBe(true));
    const body = (calls.find((c) => c.name === 'as.m.assess.forms.insertForm')!.input as { definition: Record<string, unknown> })
      .definition;
    expect(body).not.toHaveProperty('formcode');
    expect(body.formname).toEqual({ zh: '测试量表', en: '' });
    const questions = body.questions as {
      no: number;
      type: number;
      reverse: boolean;
      text: { zh: string };
      options: { score: number }[];
    }[];
    expect(questions.map((q) => [q.no, q.type, q.text.zh, q.reverse])).toEqual([
      [1, 1, '心情低落', false],
      [2, 1, '精力充沛', true],
    ]);
    expect(questions[0].options.map((o) => o.score)).toEqual([0, 1, 2, 3]);
    const indicators = body.indicators as {
      code: string;
      kind: string;
      items?: number[];
      bands: { min: number; max: number; level: number; label: { zh: string } }[];
    }[];
    expect(indicators[0]).toMatchObject({
      code: 'total',
      kind: 'total',
      bands: [{ min: 0, max: 6, level: 0, label: { zh: '全部', en: '' } }],
    });
    expect(indicators[0].items).toBeUndefined();
    expect(indicators[1]).toMatchObject({ code: 'F1', kind: 'factor', items: [1, 2], bands: [] });
    // The drawer reloads the saved scale and stays clean (no unsaved-changes mark).
    await waitFor(() => expect(calls.filter((c) => c.name === 'as.m.assess.forms.getForm')).toHaveLength(1));
    await screen.findByText('编辑量表：测试量表');
    expect(screen.queryByText('有未保存的修改')).toBeNull();
  });

  /** A one-item scale with a banded total (0-3), ready to save. */
  async function oneItemScale() {
    await type('scale-formname', '约定量表');
    await openTab('题目');
    await click('add-single');
    await type('q1-text', '心情低落');
    for (let o = 1; o <= 4; o++) await type(`q1-opt${o}-text`, `选项${o}`);
    await openTab('指标与分段');
    await type('ind0-name', '总分');
    await click('ind0-add-band');
    await type('ind0-band0-max', '3');
    await type('ind0-band0-label', '全部');
  }

  it('adds scoring conventions: the one marked default is saved first, with the bands it replaces (issue 31)', async () => {
    renderEditor();
    await oneItemScale();
    await click('add-convention');
    await click('add-convention');
    await type('conv0-name', '标准');
    await type('conv1-name', '筛查切分');
    await type('conv1-name-en', 'Screening cut-off');
    await type('conv1-source', '某研究 2020');
    // The replaced bands start from the indicator's own (0-3), then move a cut-off.
    await click('conv1-add-indicator');
    await type('conv1-0-band0-max', '1');
    await click('conv1-0-add-band');
    await type('conv1-0-band1-max', '3');
    await type('conv1-0-band1-label', '阳性');
    await click('conv1-make-default');
    await act(async () => {
      await click('scale-save');
    });
    await waitFor(() => expect(calls.some((c) => c.name === 'as.m.assess.forms.insertForm')).toBe(true));
    const body = (calls.find((c) => c.name === 'as.m.assess.forms.insertForm')!.input as { definition: { conventions: unknown[] } })
      .definition;
    expect(body.conventions).toEqual([
      {
        code: 'c2',
        name: { zh: '筛查切分', en: 'Screening cut-off' },
        source: '某研究 2020',
        indicators: [
          {
            code: 'total',
            bands: [
              expect.objectContaining({ min: 0, max: 1, level: 0, label: { zh: '全部', en: '' } }),
              expect.objectContaining({ min: 2, max: 3, level: 1, label: { zh: '阳性', en: '' } }),
            ],
          },
        ],
      },
      { code: 'c1', name: { zh: '标准', en: '' }, source: '', indicators: [] },
    ]);
  });

  it('does not save two conventions with one code and shows the conventions tab with the reason', async () => {
    renderEditor();
    await oneItemScale();
    await click('add-convention');
    await click('add-convention');
    await type('conv0-name', '标准');
    await type('conv1-name', '另一种');
    await type('conv1-code', 'c1');
    await act(async () => {
      await click('scale-save');
    });
    await waitFor(() => expect(selectedTab()).toContain('计分约定'));
    expect(calls.some((c) => c.name === 'as.m.assess.forms.insertForm')).toBe(false);
    expect((await within(screen.getByTestId('conventions-section')).findAllByText('约定代码已被使用')).length).toBeGreaterThan(0);
  });

  it('does not save while a required text is empty and shows which tab holds it', async () => {
    renderEditor();
    await openTab('题目');
    await click('add-single');
    await act(async () => {
      await click('scale-save');
    });
    await waitFor(() => expect(selectedTab()).toContain('基本信息'));
    expect(calls.some((c) => c.name === 'as.m.assess.forms.insertForm')).toBe(false);
    // The message is a full sentence, not only the field's name.
    expect(await within(screen.getByTestId('scale-editor')).findByText('请输入量表名称')).toBeTruthy();
  });

  it('asks before Close or Esc discards unsaved changes; cancel keeps the edit, confirm closes', async () => {
    const onClose = vi.fn();
    renderEditor(onClose);
    await type('scale-formname', '未保存的量表');
    await click('scale-close');
    expect((await screen.findAllByText('放弃未保存的修改？')).length).toBeGreaterThan(0);
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      await click('scale-discard-cancel');
    });
    expect(onClose).not.toHaveBeenCalled();
    expect((await inputIn('scale-formname')).value).toBe('未保存的量表');
    // Esc on the drawer asks too (once, however often it is pressed); confirming closes.
    // (jsdom runs no closing animation: the answered prompt stays in the document.)
    const before = screen.queryAllByTestId('scale-discard-ok').length;
    const drawer = document.querySelector('.ant-drawer-section, .ant-drawer-content')!;
    fireEvent.keyDown(drawer, { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.keyDown(drawer, { key: 'Escape', code: 'Escape', keyCode: 27 });
    await waitFor(() => expect(screen.queryAllByTestId('scale-discard-ok')).toHaveLength(before + 1));
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(screen.getAllByTestId('scale-discard-ok').at(-1)!);
    });
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('closes at once when nothing changed', async () => {
    const onClose = vi.fn();
    renderEditor(onClose);
    await inputIn('scale-formname');
    await click('scale-close');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryAllByText('放弃未保存的修改？')).toHaveLength(0);
  });

  it('shows a long scale 20 items to a page; an added item shows on the last page', async () => {
    held.set('F0025', longScale('F0025', 25));
    renderEditor(undefined, 'F0025');
    await openTab('题目');
    await screen.findByTestId('question-1');
    expect(shownItems()).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByTestId('question-21');
    expect(shownItems()).toEqual([21, 22, 23, 24, 25]);
    fireEvent.click(screen.getByTitle('1'));
    await screen.findByTestId('question-1');
    await click('add-single');
    await screen.findByTestId('question-26');
    expect(shownItems()).toEqual([21, 22, 23, 24, 25, 26]);
  });

  it('an item left incomplete on a page not shown stops the save; its page is shown and the item named', async () => {
    held.set('F0026', longScale('F0026', 25));
    renderEditor(undefined, 'F0026');
    await openTab('题目');
    fireEvent.click(await screen.findByTitle('2'));
    await type('q23-text', ' ');
    fireEvent.click(screen.getByTitle('1'));
    await screen.findByTestId('question-1');
    await openTab('基本信息');
    await act(async () => {
      await click('scale-save');
    });
    await waitFor(() => expect(selectedTab()).toContain('题目'));
    await screen.findByTestId('question-23');
    expect((await screen.findByTestId('scale-save-error')).textContent).toContain('第 23 题未填写完整');
    expect(calls.some((c) => c.name === 'as.m.assess.forms.updateForm')).toBe(false);
  });
});
