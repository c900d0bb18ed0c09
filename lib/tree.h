/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Local directory trees (paths on the machine mlxcli runs on, not target
 * paths): copy a captured system, remove a temporary one.  Symlinks are
 * copied and removed as links, never followed.
 */
#ifndef MLX_TREE_H
#define MLX_TREE_H

/* Copy @src to @dst (which must not exist).  0 or -errno. */
int mlx_tree_copy(const char *src, const char *dst);
/* rm -rf without following links.  0 or -errno of the first failure. */
int mlx_tree_remove(const char *path);
/* The same for the entry @name of the directory @dfd (no '/' in @name):
 * every directory below is opened from its parent's fd with O_NOFOLLOW,
 * so nothing outside the tree is touched, whatever its links say; a
 * file system mounted inside is not entered (-EXDEV). */
int mlx_tree_remove_at(int dfd, const char *name);

/* The names in the directory @dfd (not "." nor ".."), sorted: into
 * *@names (each and the array malloc'd; free with mlx_dir_names_free),
 * their count in *@n.  @dfd stays open and its position is not moved (a
 * duplicate is read).  Read whole before the caller acts on any, since
 * removing entries while readdir() walks a directory may skip some, and
 * sorted so that what is made from them (a hash, a listing) does not
 * depend on the file system's order.  0 or -errno (nothing to free). */
int mlx_dir_names(int dfd, char ***names, size_t *n);
void mlx_dir_names_free(char **names, size_t n);

#endif
