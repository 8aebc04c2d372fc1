export const documentsScreens = { cdnDocs: { load: () => import('./DocumentsPage') } };
