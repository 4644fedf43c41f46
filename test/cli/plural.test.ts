/**
 * The CLI's counts (src/cli/plural.ts): singular for exactly 1, for every kind `atrium seed` and
 * `atrium academy import` count by their plural wire names.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { count, countOf } from '../../src/cli/plural.js';

describe('CLI counts', () => {
  it('says 1 in the singular and every other number in the plural', () => {
    assert.equal(count(1, 'file'), '1 file');
    assert.equal(count(0, 'file'), '0 files');
    assert.equal(count(2, 'row'), '2 rows');
    assert.equal(count(1, 'stored file'), '1 stored file');
  });

  it('names each kind of the seed summary and of an academy import in the right number', () => {
    const kinds: Record<string, string> = {
      organizations: 'organization',
      organization_groups: 'organization group',
      employees: 'employee',
      roles: 'role',
      users: 'user',
      employee_document_types: 'employee document type',
      employee_documents: 'employee document',
      kb_categories: 'kb category',
      kb_articles: 'kb article',
      request_forms: 'request form',
      requests: 'request',
      comments: 'comment',
      process_templates: 'process template',
      processes: 'process',
      tasks: 'task',
      document_generation_templates: 'document generation template',
      saml_identity_providers: 'saml identity provider',
      categories: 'category',
      courses: 'course',
      curriculums: 'curriculum',
      venues: 'venue',
    };
    for (const [kind, one] of Object.entries(kinds)) {
      assert.equal(countOf(1, kind), `1 ${one}`, kind);
      assert.equal(countOf(3, kind), `3 ${kind.replaceAll('_', ' ')}`, kind);
    }
  });
});
