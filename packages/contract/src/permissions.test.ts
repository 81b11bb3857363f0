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

  it('names, for each permission, exactly the roles that hold it', () => {
    expect(rolesWith('admins.manage')).toEqual(['full access']);
    for (const permission of PERMISSIONS) {
      expect(rolesWith(permission), permission).toEqual(ROLES.filter((role) => can(role, permission)));
      // A permission no role holds would make its routes unreachable for everyone.
      expect(rolesWith(permission).length, permission).toBeGreaterThan(0);
    }
  });
});
