// SPEC §2.3

export interface Tag {
    nombre: string;
    color: string;
}
