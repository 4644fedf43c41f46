import type { SignatureType } from './schemas.js';

/** When the catalogue below last changed: every type's `updated_at`. */
const CATALOGUE_DATE = '2026-11-27T00:00:00Z';

function signatureType(
  id: string,
  backendCode: SignatureType['backend_code'],
  title: string,
  description: string,
): SignatureType {
  return {
    id,
    backend_code: backendCode,
    localized_title: { en: title, fr: title },
    localized_description: { en: description, fr: description },
    display_in_ui: true,
    title,
    description,
    default_sms_notification: { user: false, employee: false, guest: false },
    two_factor_auth_settings: null,
    include_signer_link: true,
    storage_profile: 'peopledoc-sae',
    signer_can_reject: true,
    delegation: false,
    template_id: null,
    external_authentication: false,
    docusign_settings: null,
    docusign_provider: null,
    docusign_protect_and_sign_settings: null,
    display_terms_on_signature_portal: false,
    created_at: null,
    updated_at: CATALOGUE_DATE,
  };
}

/**
 * The signature types every client has (docs/hr-api.md, "Electronic signature"). The real service configures them
 * per client with a provider behind each; Atrium is its own signing backend, so it offers one type per backend
 * code of the reference, and they differ only in their id, code and title: each signs with Atrium's signing page
 * or `POST /signers/{id}/sign`, and each lets a signer refuse. `signature_positions` are used (stamped where they
 * say) with any type, not only with Protect & Sign.
 */
export const SIGNATURE_TYPES: readonly SignatureType[] = [
  signatureType(
    'adobesign',
    'adobesign',
    'Electronic signature (Adobe Sign)',
    'Simple electronic signature, signed on Atrium’s signing page.',
  ),
  signatureType(
    'docusign',
    'docusign',
    'Electronic signature (DocuSign)',
    'Simple electronic signature, signed on Atrium’s signing page.',
  ),
  signatureType(
    'docusign_protect_and_sign',
    'docusign_protect_and_sign',
    'Advanced electronic signature (Protect & Sign)',
    'Electronic signature placed at the signers’ signature positions, signed on Atrium’s signing page.',
  ),
];

export function findSignatureType(id: string): SignatureType | undefined {
  return SIGNATURE_TYPES.find((t) => t.id === id);
}
