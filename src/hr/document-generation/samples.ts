import { buildDocx } from '../../platform/docgen/build-docx.js';
import type { SyntaxVersion } from '../../platform/docgen/types.js';

/**
 * The sample template of the README's walkthrough, `atrium hr sample-template` and the seed: an employment
 * certificate with a value, a date, a table of rows and a condition, in either syntax.
 */
export function certificateTemplate(syntax: SyntaxVersion = 'V2'): Uint8Array {
  const [open, close] = syntax === 'V2' ? ['{', '}'] : ['[', ']'];
  const t = (tag: string) => `${open}${tag}${close}`;
  return buildDocx([
    { paragraph: 'Employment certificate', style: 'Title' },
    {
      paragraph: `We certify that ${t('$firstname')} ${t('$lastname')} has worked at ${t('$company')} since ${t('$hire_date')}, as ${t('$position')}.`,
    },
    { paragraph: 'Salary history', style: 'Heading1' },
    {
      table: [
        ['Year', 'Gross salary'],
        [`${t('#$salaries')}${t('$year')}`, `${t('$amount')}${t('/$salaries')}`],
      ],
    },
    { paragraph: `${t('#$remote')}The employee works remotely.${t('/$remote')}` },
    { paragraph: `Issued in ${t('$city')}.`, align: 'right' },
  ]);
}

/** A fragment for the seed: a signature block with its own placeholder. */
export function signatureFragment(): Uint8Array {
  return buildDocx([{ paragraph: 'For the company: {$signatory}, HR director.' }]);
}
