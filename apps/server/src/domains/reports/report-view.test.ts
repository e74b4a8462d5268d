import { describe, expect, it } from 'vitest';
import { getTableColumns, getViewSelectedFields, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/database.js';
import { engines, freshDatabase } from '../../test/harness.js';
import { assessment } from '../assessments/tables.js';
import { report } from './tables.js';

/**
 * Reports reads the report rows through its `report` view over assessments' `assessment` table.
 * A view names its columns when it is created (the table's own order is that of the migrations that
 * added them, so both are compared by name), so a column a later migration adds to the table
 * would be missing from every report read until the view is made again: the two must agree.
 */
async function columnsOf(db: DbOrTx, relation: string) {
  const { rows } = (await db.execute(
    sql`select column_name as name, data_type as type from information_schema.columns
        where table_schema = 'public' and table_name = ${relation} order by column_name`,
  )) as unknown as { rows: { name: string; type: string }[] };
  return rows;
}

describe.each(engines())('the report view (%s)', (engine) => {
  it('has every column of the assessment table, with its type, in the migrated database and in drizzle', async () => {
    const database = await freshDatabase(engine);
    try {
      const table = await columnsOf(database.db, 'assessment');
      expect(table.length).toBeGreaterThan(10);
      expect(await columnsOf(database.db, 'report')).toEqual(table);
      expect(Object.keys(getViewSelectedFields(report)).sort()).toEqual(Object.keys(getTableColumns(assessment)).sort());

      // The check sees a column the table gained and the view did not.
      await database.db.execute(sql`alter table assessment add column probe integer`);
      expect(await columnsOf(database.db, 'report')).not.toEqual(await columnsOf(database.db, 'assessment'));
    } finally {
      await database.close();
    }
  });
});
