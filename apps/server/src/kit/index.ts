/**
 * The server kit: the small helpers every domain handler uses, one copy each.
 *
 * - ids.ts     newId(prefix): random object ids with a registered prefix per kind
 * - time.ts    iso(date), todayIn(now): instants and China calendar dates on the wire
 * - calendar.ts addDays, addMonths, daysBetween, eachDay, eachMonth, monthOf on `YYYY-MM-DD` days
 * - text.ts    contains(column(s), value): the escaped case-insensitive "contains" filter
 * - paging.ts  paged(db, query, orderBy, page) -> { total, rows }, pageOfArray(list, page),
 *              countRows(db, table, where), pageThrough (a page through prepared statements)
 * - prepared.ts statements built once and run on any database or transaction: statementsByShape
 *              (a list's, one set per shape of filter), preparedOnce (one hot statement),
 *              statementsForKeys and preparedForKeys (rows of a list of keys), preparedRows (an
 *              insert of a request's few rows), placeholderRow and rowValues
 * - reference-reads.ts referenceRead(name, key, read): a read of rows that rarely change, kept
 *              by the process until the database announces a change (the respondent steps' hot reads);
 *              ownCopy, the deep copy each caller of a kept value gets; keptSince with a read's
 *              keep, to keep a value the request read another way
 *
 * - xlsx.ts    streamXlsx(sheet, header, fill), escapeCell, XLSX_TYPE: streamed .xlsx downloads with
 *              formula cells escaped and backpressure (the exports of every domain)
 *
 * kit/upload/ (the guarded spreadsheet reader) is imported from its own folder, and so is
 * metrics.ts (the Prometheus registry and the counters domains move: sign-in failures, warnings raised).
 */
export { ID_PREFIXES, newId, newIds, type IdPrefix } from './ids.js';
export { CALENDAR_TIME_ZONE, DAY_MS, HOUR_MS, iso, todayIn } from './time.js';
export { addDays, addMonths, daysBetween, eachDay, eachMonth, monthOf } from './calendar.js';
export { contains, containsPattern } from './text.js';
export { countRows, offsetOf, paged, pageOfArray, pageThrough, totalColumn, type PageInput, type Paged, type PageStatements } from './paging.js';
export { placeholderRow, preparedForKeys, preparedOnce, preparedRows, rowValues, statementsByShape, statementsForKeys } from './prepared.js';
export { maskEmail, maskIdCard, maskName, maskPhone } from './mask.js';
export { escapeCell, streamXlsx, XLSX_TYPE, type AddRows } from './xlsx.js';
export { outerColumn, type Bindable } from './sql.js';
export { keptSince, ownCopy, referenceRead } from './reference-reads.js';
