'use client';

import '@scalar/api-reference-react/style.css';
import './scalar-overrides.css';
import { type AnyApiReferenceConfiguration, ApiReferenceReact } from '@scalar/api-reference-react';
import { useTheme } from 'next-themes';
import { useMemo } from 'react';
import { OPENAPI_URL } from './openapi-url';

/**
 * Scalar, fitted into the console: our colours and fonts (scalar-overrides.css), our theme switch,
 * and nothing loaded from the internet (no font CDN, no request proxy, no telemetry, no hosted
 * agent or sharing tools).
 */
export default function ApiReference() {
  const { resolvedTheme } = useTheme();
  const dark = resolvedTheme === 'dark';
  const configuration = useMemo<AnyApiReferenceConfiguration>(
    () => ({
      url: OPENAPI_URL,
      withDefaultFonts: false,
      telemetry: false,
      hideClientButton: true,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      documentDownloadType: 'json',
      hideDarkModeToggle: true,
      forceDarkModeState: dark ? 'dark' : 'light',
      darkMode: dark,
      theme: 'default',
      layout: 'modern',
      defaultOpenAllTags: false,
    }),
    [dark],
  );
  return <ApiReferenceReact configuration={configuration} />;
}
