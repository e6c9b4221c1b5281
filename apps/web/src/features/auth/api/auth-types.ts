/** `data` of a successful login (POST /api/user/login, OAuth callbacks). */
export interface LoginUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}
