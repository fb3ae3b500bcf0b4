// MCPClient reference (v1), "Custom token storage": an OAuthStorage implementation backed by a database.
import { MCPOAuthClientProvider, OAuthStorage } from 'mastra-mcp';

// Assumed from the app:
interface Database {
  query(sql: string, params: unknown[]): Promise<any[] | undefined>;
}
declare const db: Database;

class DatabaseOAuthStorage implements OAuthStorage {
  constructor(
    private db: Database,
    private userId: string,
  ) {}

  async set(key: string, value: string): Promise<void> {
    await this.db.query(
      'INSERT INTO oauth_tokens (user_id, key, value) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET value = ?',
      [this.userId, key, value, value],
    );
  }

  async get(key: string): Promise<string | undefined> {
    const result = await this.db.query('SELECT value FROM oauth_tokens WHERE user_id = ? AND key = ?', [
      this.userId,
      key,
    ]);
    return result?.[0]?.value;
  }

  async delete(key: string): Promise<void> {
    await this.db.query('DELETE FROM oauth_tokens WHERE user_id = ? AND key = ?', [this.userId, key]);
  }
}

const provider = new MCPOAuthClientProvider({
  redirectUrl: 'http://localhost:3000/callback',
  clientMetadata: { redirect_uris: ['http://localhost:3000/callback'] /* ... */ },
  storage: new DatabaseOAuthStorage(db, 'user-123'),
});
