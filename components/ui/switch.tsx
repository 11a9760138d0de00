'use client';

import { Switch as S } from 'radix-ui';
import * as React from 'react';
import { cn } from './cn';

/** An on/off switch (role=switch); give it an aria-label or a <label htmlFor>. */
export const Switch = React.forwardRef<HTMLButtonElement, React.ComponentProps<typeof S.Root>>(({ className, ...props }, ref) => (
  <S.Root
    ref={ref}
    className={cn(
      'peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50',
      'data-[state=checked]:bg-primary data-[state=unchecked]:bg-input',
      className,
    )}
    {...props}
  >
    <S.Thumb className="pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0" />
  </S.Root>
));
Switch.displayName = 'Switch';
