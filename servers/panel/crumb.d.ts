// The part of @hapi/crumb's API the panel uses (the package ships no types).
declare module '@hapi/crumb' {
    import type { Plugin, Request, ResponseToolkit, ServerStateCookieOptions } from '@hapi/hapi';

    export interface CrumbOptions {
        key?: string;
        size?: number;
        autoGenerate?: boolean;
        addToViewContext?: boolean;
        cookieOptions?: ServerStateCookieOptions;
        headerName?: string;
        restful?: boolean;
        skip?: (request: Request, h: ResponseToolkit) => boolean;
        enforce?: boolean;
        logUnauthorized?: boolean;
    }

    export const plugin: Plugin<CrumbOptions>;
}
