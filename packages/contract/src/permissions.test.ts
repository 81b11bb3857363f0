import { describe, expect, it } from 'vitest';
import { PERMISSIONS, can, rolesWith } from './permissions.js';
import { ROLES } from './role-names.js';

describe('the permission table', () => {
  it('gives full access every permission and basic access none', () => {
    for (const permission of PERMISSIONS) {
      expect(can('full access', permission)).toBe(true);
      expect(can('basic access', permission)).toBe(false);
    }
  });

  it('names the roles holding a permission', () => {
    expect(rolesWith('admins.manage')).toEqual(['full access']);
    // Every role is in the table (a role missing from it would not compile, nor answer here).
    for (const role of ROLES) expect(typeof can(role, 'audit.read')).toBe('boolean');
  });
});
