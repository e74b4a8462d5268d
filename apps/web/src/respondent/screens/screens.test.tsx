/**
 * The respondent screens rendered in jsdom with the data the server sends: the parts the browser
 * test cannot reach yet (QR registration and a shown result need an institution's entry
 * settings), and the answer flow's save, refusal and retry rules.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setLang } from '../i18n';
import { RespondentError } from '../api';
import { ResultScreen, type RespondentResult } from './ResultScreen';
import { RegisterScreen } from './RegisterScreen';
import { AnswerFlow } from './AnswerFlow';
import { StartScreen } from './StartScreen';
import type { RQuestion } from '../answers';

const T = (zh: string, en = zh) => ({ zh, en });
const result = (over: Partial<RespondentResult> = {}): RespondentResult => ({
  reportid: 'R1',
  formname: T('抑郁筛查', 'Depression check'),
  shown: true,
  mentalstate: 2,
  crisis: null,
  indicators: [
    {
      name: T('总分', 'Total'),
      score: 12,
      level: 2,
      colour: '#f2c12e',
      label: T('中度', 'Moderate'),
      interpretation: T('情绪困扰处于中等程度。'),
      advice: T('建议与专业人员聊一聊。'),
    },
  ],
  ...over,
});

describe('result screen', () => {
  it('shows the plain-language result when the institution allows it', () => {
    setLang('zh-CN');
    render(<ResultScreen results={[result()]} brand="康乐养老院" progress={null} />);
    expect(screen.getByTestId('r-result').textContent).toContain('总分：中度');
    expect(screen.getByText('情绪困扰处于中等程度。')).toBeTruthy();
    expect(screen.getByText('建议与专业人员聊一聊。')).toBeTruthy();
    expect(screen.queryByTestId('r-crisis')).toBeNull();
  });

  it('always shows the crisis text, first, even when results are hidden', () => {
    setLang('en-US');
    render(
      <ResultScreen
        results={[result({ shown: false, crisis: T('请拨打本院热线 0571-1234', 'Call our hotline 0571-1234') })]}
        brand=""
        progress={null}
      />,
    );
    const crisis = screen.getByTestId('r-crisis');
    expect(crisis.textContent).toContain('Call our hotline 0571-1234');
    expect(crisis.getAttribute('role')).toBe('alert');
    expect(screen.queryByTestId('r-result')).toBeNull();
    expect(screen.getByText(/A professional will look at your results/)).toBeTruthy();
  });

  it('makes every hotline in the crisis text a tap-to-call link, and no other number', () => {
    setLang('zh-CN');
    const text = '请拨打全国心理援助热线 12356（24小时），紧急时拨打 120 或 110。\n本机构心理援助电话：0571-88886666';
    render(<ResultScreen results={[result({ shown: false, crisis: T(text, text) })]} brand="" progress={null} />);
    const links = [...screen.getByTestId('r-crisis').querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([
      ['12356', 'tel:12356'],
      ['120', 'tel:120'],
      ['110', 'tel:110'],
      ['0571-88886666', 'tel:057188886666'],
    ]);
    expect(screen.getByTestId('r-crisis').textContent).toContain('（24小时）');
  });
});

describe('QR registration screen', () => {
  const choices = [
    { appid: '000000004', stagecode: 'S1', label: '中老年 · 社区随访' },
    { appid: '000000004', stagecode: 'S2', label: '中老年 · 入住评估' },
  ];

  it('names every missing field and registers nothing', () => {
    setLang('zh-CN');
    const onRegister = vi.fn();
    render(<RegisterScreen choices={choices} error={null} busy={false} onRegister={onRegister} />);
    fireEvent.click(screen.getByTestId('r-register'));
    for (const text of ['请选择要参加的测评', '请填写姓名', '请选择性别', '请填写出生日期', '请填写正确的 11 位手机号码'])
      expect(screen.getByText(text)).toBeTruthy();
    expect(onRegister).not.toHaveBeenCalled();
  });

  it('sends the chosen stage and the trimmed details', () => {
    const onRegister = vi.fn();
    render(<RegisterScreen choices={choices} error={null} busy={false} onRegister={onRegister} />);
    fireEvent.click(screen.getByTestId('r-choice-1'));
    fireEvent.change(screen.getByTestId('r-realname'), { target: { value: ' 王阿姨 ' } });
    fireEvent.click(screen.getByTestId('r-gender-02'));
    fireEvent.change(screen.getByTestId('r-birthdate'), { target: { value: '1950-02-03' } });
    fireEvent.change(screen.getByTestId('r-phone'), { target: { value: '138 1234 5678' } });
    fireEvent.click(screen.getByTestId('r-register'));
    expect(onRegister).toHaveBeenCalledWith({
      appid: '000000004',
      stagecode: 'S2',
      realname: '王阿姨',
      gender: '02',
      birthdate: '1950-02-03',
      phone: '13812345678',
    });
  });

  it('refuses a number the server would refuse (12…), in place, and takes the respondent to it', () => {
    const onRegister = vi.fn();
    render(<RegisterScreen choices={choices.slice(0, 1)} error={null} busy={false} onRegister={onRegister} />);
    fireEvent.change(screen.getByTestId('r-realname'), { target: { value: '王阿姨' } });
    fireEvent.click(screen.getByTestId('r-gender-02'));
    fireEvent.change(screen.getByTestId('r-birthdate'), { target: { value: '1950-02-03' } });
    fireEvent.change(screen.getByTestId('r-phone'), { target: { value: '12012345678' } });
    fireEvent.click(screen.getByTestId('r-register'));
    expect(screen.getByText('请填写正确的 11 位手机号码')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByTestId('r-phone'));
    expect(onRegister).not.toHaveBeenCalled();
  });

  it('asks no choice when the entry offers one assessment', () => {
    render(<RegisterScreen choices={choices.slice(0, 1)} error={null} busy={false} onRegister={vi.fn()} />);
    expect(screen.queryByTestId('r-choice-0')).toBeNull();
  });
});

describe('answer flow', () => {
  const q = (no: number): RQuestion => ({
    no,
    type: 1,
    required: true,
    text: T(`问题${no}`),
    options: [{ text: T('否') }, { text: T('是') }],
  });
  const questions = [q(1), q(2), q(3)];

  it('resumes at the first unanswered question, refuses an empty answer, saves each answer before moving on', async () => {
    setLang('zh-CN');
    const saveOne = vi.fn().mockResolvedValue({ savedcount: 2 });
    const finish = vi.fn().mockResolvedValue(undefined);
    render(
      <AnswerFlow
        brand=""
        title="量表"
        stepLabel=""
        questions={questions}
        saved={{ 1: { no: 1, option: 2 } }}
        saveOne={saveOne}
        finish={finish}
        confirmAtEnd
        notice="已恢复"
      />,
    );
    expect(screen.getByTestId('r-progress').textContent).toContain('第 2 题，共 3 题');
    expect(screen.getByTestId('r-resumed')).toBeTruthy();
    fireEvent.click(screen.getByTestId('r-next'));
    expect(screen.getByTestId('r-error').textContent).toContain('请先回答这一题');
    expect(saveOne).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('r-option-1'));
    fireEvent.click(screen.getByTestId('r-next'));
    await waitFor(() => expect(screen.getByTestId('r-progress').textContent).toContain('第 3 题'));
    expect(saveOne).toHaveBeenCalledWith({ no: 2, option: 1 });
    fireEvent.click(screen.getByTestId('r-option-2'));
    fireEvent.click(screen.getByTestId('r-next'));
    await waitFor(() => expect(screen.getByTestId('r-submit')).toBeTruthy());
    fireEvent.click(screen.getByTestId('r-submit'));
    await waitFor(() =>
      expect(finish).toHaveBeenCalledWith([
        { no: 1, option: 2 },
        { no: 2, option: 1 },
        { no: 3, option: 2 },
      ]),
    );
  });

  it('keeps the answer on a network failure and saves it with "try again"', async () => {
    const saveOne = vi
      .fn()
      .mockRejectedValueOnce(new RespondentError('网络连接失败', -1, true))
      .mockResolvedValue({ savedcount: 1 });
    render(
      <AnswerFlow brand="" title="量表" stepLabel="" questions={questions} saved={{}} saveOne={saveOne} finish={vi.fn()} confirmAtEnd />,
    );
    fireEvent.click(screen.getByTestId('r-option-2'));
    fireEvent.click(screen.getByTestId('r-next'));
    await waitFor(() => expect(screen.getByTestId('r-retry')).toBeTruthy());
    expect((screen.getByTestId('r-option-2') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByTestId('r-retry'));
    await waitFor(() => expect(screen.getByTestId('r-progress').textContent).toContain('第 2 题'));
    expect(saveOne).toHaveBeenCalledTimes(2);
  });

  it('shows a refusal of the server without "try again"', async () => {
    const finish = vi.fn().mockRejectedValue(new RespondentError('这份问卷已经提交过了', 100409));
    render(
      <AnswerFlow
        brand=""
        title="量表"
        stepLabel=""
        questions={[q(1)]}
        saved={{ 1: { no: 1, option: 1 } }}
        saveOne={vi.fn()}
        finish={finish}
        confirmAtEnd
      />,
    );
    fireEvent.click(screen.getByTestId('r-submit'));
    await waitFor(() => expect(screen.getByTestId('r-error').textContent).toContain('这份问卷已经提交过了'));
    expect(screen.queryByTestId('r-retry')).toBeNull();
  });
});

describe('start screen', () => {
  it('marks the code wrong only for a refusal, not for a failure to try again (network, a busy server)', () => {
    setLang('zh-CN');
    const { rerender } = render(<StartScreen error="服务器繁忙，请稍后再试" busy={false} onStart={vi.fn()} onRetry={vi.fn()} initialCode="ABCDEFGHJK" />);
    expect(screen.getByTestId('r-code').getAttribute('aria-invalid')).toBe('false');
    rerender(<StartScreen error="测评码不存在" busy={false} onStart={vi.fn()} initialCode="ABCDEFGHJK" />);
    expect(screen.getByTestId('r-code').getAttribute('aria-invalid')).toBe('true');
  });
});
