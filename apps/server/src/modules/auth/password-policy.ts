import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { limits, messages } from '@pathway/contract';
import { HttpError } from '../../lib/http-error.js';

/**
 * NCSC password guidance and ASVS 2.1.7: no composition rules, but a length floor and a refusal of
 * passwords that are known or easy to guess. The list is zxcvbn-ts's common dictionary (the ~30,000
 * most frequent passwords of public breach corpora, shipped inside the npm package, so no network
 * call and no password leaves the server); zxcvbn also catches the usual variations of a listed
 * word (capitals, l33t, a year or digits added, keyboard walks, repeats), which a plain list lookup
 * misses ('Password1234', 'qwertyuiop123'). A score of 3 means about 10^8 guesses or more.
 */
const MIN_SCORE = 3;

let checker: ZxcvbnFactory | undefined;
let commonList: Set<string> | undefined;

async function load(): Promise<{ checker: ZxcvbnFactory; commonList: Set<string> }> {
  if (!checker || !commonList) {
    // Loaded on first use (the dictionaries are large), not at every start of the server.
    const common = await import('@zxcvbn-ts/language-common');
    commonList = new Set(common.dictionary['passwords-common'].map((p) => p.toLowerCase()));
    checker = new ZxcvbnFactory({
      dictionary: { ...common.dictionary },
      graphs: common.adjacencyGraphs,
    });
  }
  return { checker, commonList };
}

/** Refuses (400, with the reason) a password that is too short, common or built from the user name. */
export async function assertAcceptablePassword(password: string, userName: string): Promise<void> {
  if (password.length < limits.passwordMin) throw new HttpError(400, messages.admin.passwordShort);
  const name = userName.trim().toLowerCase();
  const lower = password.toLowerCase();
  const local = name.split('@')[0] ?? name;
  if (lower.includes(name) || (local.length >= 4 && lower.includes(local))) {
    throw new HttpError(400, messages.admin.passwordIsUserName);
  }
  const { checker, commonList } = await load();
  if (commonList.has(lower)) throw new HttpError(400, messages.admin.passwordCommon);
  // zxcvbn's cost grows with length; the first 100 characters carry all it can tell.
  const result = checker.check(password.slice(0, 100), [name, local]);
  if (result.score < MIN_SCORE) throw new HttpError(400, messages.admin.passwordCommon);
}
