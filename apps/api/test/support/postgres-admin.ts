import pg from 'pg';

/** One statement on the server's maintenance database (CREATE/DROP DATABASE cannot run in a pool's transaction). */
export async function adminQuery(adminUrl: string, statement: string) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
