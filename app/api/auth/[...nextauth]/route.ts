import NextAuth from 'next-auth';
import { authOptions } from '@/lib/http/auth-options';
import { getServices } from '@/lib/services';

type Ctx = { params: Promise<{ nextauth: string[] }> };

async function handler(req: Request, ctx: Ctx) {
  const services = await getServices();
  return NextAuth(req as never, ctx as never, authOptions(services));
}

export { handler as GET, handler as POST };
