// Access as one service object, built by the composition root: first-run setup, users, API tokens
// and the audit log over the database, with this process's user cache told of every change it makes
// (other replicas hear it from the change announced in the same transaction). The domain functions
// stay where they are; permissions stay with the operations.
import type { AppDb } from '@/db/client';
import { distinctAuditActions, listAudit } from '../audit/audit';
import type { AuditQuery } from '../audit/query';
import type { Actor } from './actor';
import { claimFirstRun } from './first-run';
import type { CreateTokenInput, CreateUserInput, SetupInput, UpdateUserInput } from './schemas';
import { createToken, listTokens, revokeToken } from './tokens';
import type { UserCache } from './user-cache';
import { changeOwnPassword, createUser, listUsers, resetPassword, updateUser, userCount } from './users';

export interface AccessServiceDeps {
  db: AppDb;
  /** Where the first-run setup token lives. */
  dataDir: string;
  users: UserCache;
}

export class AccessService {
  constructor(private readonly d: AccessServiceDeps) {}

  async setupNeeded() {
    return (await userCount(this.d.db)) === 0;
  }

  claimFirstRun(token: string | undefined, input: SetupInput, actor: Actor) {
    return claimFirstRun(this.d.db, this.d.dataDir, token, input, actor);
  }

  async changeOwnPassword(actor: Actor, currentPassword: string, newPassword: string) {
    await changeOwnPassword(this.d.db, actor, currentPassword, newPassword);
    this.d.users.invalidate(actor.userId!);
  }

  listUsers() {
    return listUsers(this.d.db);
  }

  createUser(actor: Actor, input: CreateUserInput) {
    return createUser(this.d.db, actor, input);
  }

  async updateUser(actor: Actor, id: string, input: UpdateUserInput) {
    const out = await updateUser(this.d.db, actor, id, input);
    this.d.users.invalidate(id);
    return out;
  }

  async resetPassword(actor: Actor, id: string, password: string) {
    await resetPassword(this.d.db, actor, id, password);
    this.d.users.invalidate(id);
  }

  listTokens(userId: string) {
    return listTokens(this.d.db, userId);
  }

  createToken(actor: Actor, input: CreateTokenInput) {
    return createToken(this.d.db, actor, input);
  }

  revokeToken(actor: Actor, id: string) {
    return revokeToken(this.d.db, actor, id);
  }

  listAudit(q: AuditQuery) {
    return listAudit(this.d.db, q);
  }

  auditActions() {
    return distinctAuditActions(this.d.db);
  }
}
