// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '@/test/helpers/render-component';
import { useCan } from '../viewer';
import { usePaletteIntent } from './use-palette-intent';

function Page() {
  const can = useCan('agents.write');
  const [opened, setOpened] = useState(0);
  usePaletteIntent('new', can.allowed, () => setOpened((n) => n + 1));
  return <p data-testid="opened">{opened}</p>;
}

const at = (url: string) => {
  window.history.replaceState(null, '', url);
  return url;
};

describe('a command-palette intent in the URL', () => {
  it('opens the dialog once for a role that may, and leaves the other parameters in the URL', () => {
    renderComponent(<Page />, { role: 'admin', url: at('/agents?q=writer&new=1') });
    expect(screen.getByTestId('opened').textContent).toBe('1');
    expect(window.location.pathname + window.location.search).toBe('/agents?q=writer');
  });

  it('does not open it for a read-only role, but still clears the parameter', () => {
    renderComponent(<Page />, { role: 'viewer', url: at('/agents?new=1') });
    expect(screen.getByTestId('opened').textContent).toBe('0');
    expect(window.location.search).toBe('');
  });

  it('does nothing without the parameter', () => {
    renderComponent(<Page />, { role: 'admin', url: at('/agents?q=x') });
    expect(screen.getByTestId('opened').textContent).toBe('0');
    expect(window.location.search).toBe('?q=x');
  });
});
