import { describe, expect, it } from 'vitest';
import { PERMISSIONS, SYSTEM_ADMINISTRATOR_PERMISSIONS, can, rolesWith } from './permissions.js';
import { ROLES } from './role-names.js';

describe('the permission table', () => {
  it("gives full access every organisation's permission and basic access none", () => {
    for (const permission of PERMISSIONS) {
      expect(can('full access', permission)).toBe(
        permission !== 'logs.read' && permission !== 'instance.manage',
      );
      expect(can('basic access', permission)).toBe(false);
    }
  });

  it("gives a system administrator the instance's permissions whatever their role, and nothing of participants", () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) {
        expect(can({ role, systemAdministrator: true }, permission), `${role} ${permission}`).toBe(
          can(role, permission) || SYSTEM_ADMINISTRATOR_PERMISSIONS.has(permission),
        );
        expect(can({ role, systemAdministrator: false }, permission)).toBe(can(role, permission));
      }
      expect(can({ role: 'basic access', systemAdministrator: true }, 'participants.identifiable')).toBe(
        false,
      );
    }
  });

  it('names, for each permission, exactly the roles that hold it', () => {
    expect(rolesWith('admins.manage')).toEqual(['full access']);
    for (const permission of PERMISSIONS) {
      expect(rolesWith(permission), permission).toEqual(ROLES.filter((role) => can(role, permission)));
      // A permission nobody holds would make its routes unreachable for everyone.
      expect(
        rolesWith(permission).length > 0 || SYSTEM_ADMINISTRATOR_PERMISSIONS.has(permission),
        permission,
      ).toBe(true);
    }
  });
});
