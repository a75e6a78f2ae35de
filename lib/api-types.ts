/** Shapes the JSON API returns, shared by the server that builds them and the client that reads them. */

/** The user as the API shows it to its owner (spec section 3 plus what the client needs). */
export interface UserDto {
  _id: string;
  username: string;
  email: string;
  isAdmin: boolean;
  isVIP: boolean;
  autoPlayVideos: boolean;
  tasks: number;
  lastTaskCompleted: string | null;
  profilePhotoUrl: string | null;
  emailVerified: boolean;
  createdAt: string;
}
