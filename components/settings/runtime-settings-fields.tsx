import type * as React from 'react';

/** A titled group of fields in two columns, and what follows the columns. */
export const Section = ({ title, children, after }: { title: string; children: React.ReactNode; after?: React.ReactNode }) => (
  <div className="grid gap-4">
    <h3 className="text-sm font-semibold">{title}</h3>
    <div className="grid gap-4 md:grid-cols-2">{children}</div>
    {after}
  </div>
);
