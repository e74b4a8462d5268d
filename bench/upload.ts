/**
 * The guarded upload reader (apps/server/src/kit/upload) on a generated person roster of
 * BENCH_ROWS rows (default 50,000) × 10 columns: rows per second and peak RSS, against
 * baselines measured in the same run on the same file: exceljs loading the whole workbook
 * (what scales/excel.ts did) and exceljs's streaming WorkbookReader (no guards).
 * Each reader runs in a child process of its own, so each peak RSS (maxRSS) is its own.
 * Prints figures only; asserts nothing. `npx tsx bench/upload.ts`
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';

const ROWS = Number(process.env.BENCH_ROWS ?? 50_000);
type Result = { rows: number; ms: number; maxRssMiB: number; baseRssMiB: number };

async function makeRoster(file: string) {
  const w = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true });
  const ws = w.addWorksheet('名单 Roster');
  ws.addRow(['姓名', '性别', '出生日期', '学号', '年级', '班级', '手机', '证件号', '监护人', '备注']).commit();
  for (let i = 1; i <= ROWS; i++) {
    ws.addRow([`学生${i}`, i % 2 ? '男' : '女', `2010-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`, 20250000 + i, `${(i % 6) + 1}年级`, `${(i % 10) + 1}班`, 13800000000 + i, `1101012010${String(i).padStart(8, '0')}`, `家长${i}`, i % 7 ? '' : '需关注 follow up']).commit();
  }
  ws.commit();
  await w.commit();
}

async function run(mode: string, file: string): Promise<Result> {
  const bytes = fs.readFileSync(file);
  const baseRssMiB = process.memoryUsage().rss / 2 ** 20;
  const start = performance.now();
  let rows = 0;
  if (mode === 'reader') {
    const { streamSheetRows } = await import('../apps/server/src/kit/upload/reader.js');
    for await (const batch of streamSheetRows(bytes, { batchRows: 1000 })) rows += batch.rows.length;
  } else if (mode === 'exceljs-load') {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
    wb.worksheets[0]!.eachRow(() => void rows++);
  } else if (mode === 'exceljs-stream') {
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', worksheets: 'emit' });
    for await (const ws of reader) for await (const _row of ws) rows++;
  }
  return { rows, ms: performance.now() - start, maxRssMiB: process.resourceUsage().maxRSS / 1024, baseRssMiB };
}

const [, , flag, mode, file] = process.argv;
if (flag === '--run') {
  console.log(JSON.stringify(await run(mode!, file!)));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xinli-upload-bench-'));
  const file = path.join(dir, 'roster.xlsx');
  await makeRoster(file);
  console.log(`roster: ${ROWS.toLocaleString('en')} rows × 10 columns, ${(fs.statSync(file).size / 2 ** 20).toFixed(2)} MiB .xlsx`);
  const self = fileURLToPath(import.meta.url);
  const measure = (mode: string): Result => JSON.parse(execFileSync(process.execPath, [...process.execArgv, self, '--run', mode, file], { encoding: 'utf8' }).trim().split('\n').pop()!);
  const results: [string, Result][] = [];
  for (const mode of ['reader', 'exceljs-load', 'exceljs-stream']) {
    const r = measure(mode);
    results.push([mode, r]);
    console.log(`${mode.padEnd(15)} ${String(r.rows).padStart(7)} rows  ${r.ms.toFixed(0).padStart(6)} ms  ${((r.rows / r.ms) * 1000).toFixed(0).padStart(8)} rows/s  peak RSS ${r.maxRssMiB.toFixed(0).padStart(5)} MiB (${(r.maxRssMiB - r.baseRssMiB).toFixed(0)} MiB above start)`);
  }
  const [, reader] = results[0]!;
  for (const [mode, r] of results.slice(1)) {
    console.log(`reader vs ${mode}: throughput ${((r.ms / reader.ms) * 1).toFixed(2)}x, peak RSS ${(reader.maxRssMiB / r.maxRssMiB).toFixed(2)}x, growth above start ${((reader.maxRssMiB - reader.baseRssMiB) / (r.maxRssMiB - r.baseRssMiB)).toFixed(2)}x`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}
