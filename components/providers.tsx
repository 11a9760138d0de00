'use client';

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider, useTheme } from 'next-themes';
import { useState } from 'react';
import { Toaster } from 'sonner';

/** A failed read is tried again (twice) when the network or the server failed; a 4xx answer will not change, so it shows at once. */
export function retryable(failures: number, e: unknown): boolean {
  const status = (e as { status?: number } | null)?.status;
  return failures < 2 && !(typeof status === 'number' && status >= 400 && status < 500);
}

export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 5_000, retry: retryable, refetchOnWindowFocus: true } },
      }),
  );
  return (
    <ThemeProvider attribute="class" defaultTheme="system" enableSystem disableTransitionOnChange>
      <QueryClientProvider client={client}>
        {children}
        <ThemedToaster />
      </QueryClientProvider>
    </ThemeProvider>
  );
}

/** Sonner does not follow the page's theme class by itself: it is told the resolved theme. */
function ThemedToaster() {
  const { resolvedTheme } = useTheme();
  return <Toaster richColors closeButton position="bottom-right" theme={resolvedTheme === 'dark' ? 'dark' : 'light'} />;
}
