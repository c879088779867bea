// docs/api.md, Resources

export interface Tag {
    nombre: string;
    color: string;
}
